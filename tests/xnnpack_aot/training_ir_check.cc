// check_training_ir_fixture (see training_ir_check.h).
#include "tests/xnnpack_aot/training_ir_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "aot/recipe/export_session.h"
#include "aot/recipe/run_method.h"
#include "apps/pte_check/pte_check.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "tests/e2e/fixture_options.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

aot::Result<aot::ExportSession> lowered(const std::string& recipe, const std::string& pt2) {
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  EMBER_TRY(backends::xnnpack::register_xnnpack_recipe(&recipes));
  EMBER_ASSIGN_OR_RETURN(aot::ExportSession session,
                         aot::ExportSession::create(recipes, recipe, pt2,
                                                    fixture_recipe_options(pt2), {}));
  EMBER_TRY(session.run());
  return session;
}

// Runs every case of `f` on one loaded program (stateful fixtures see the state the case
// before left); returns the largest |got - ref| (-1 after a failure).
double run_cases(const Fixture& f, const std::vector<uint8_t>& pte) {
  aot::RunOptions ro;
  ro.backends = &xnnpack_registry();
  auto runner = aot::PteRunner::load(pte, ro);
  if (!runner.ok()) {
    ADD_FAILURE() << ::ember::aot::format_error(runner.error());
    return -1;
  }
  double max_abs = 0;
  for (size_t c = 0; c < f.cases.size(); ++c) {
    std::vector<aot::HostTensor> inputs(f.cases[c].inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (!read_fixture_tensor(f.cases[c].inputs[i], &inputs[i])) {
        ADD_FAILURE() << "cannot read " << f.cases[c].inputs[i].file;
        return -1;
      }
    }
    auto outputs = runner.get()->run("forward", inputs);
    if (!outputs.ok()) {
      ADD_FAILURE() << "case " << c << ": " << ::ember::aot::format_error(outputs.error());
      return -1;
    }
    if (outputs->size() != f.cases[c].outputs.size()) {
      ADD_FAILURE() << "case " << c << ": " << outputs->size() << " outputs, expected "
                    << f.cases[c].outputs.size();
      return -1;
    }
    for (size_t o = 0; o < outputs->size(); ++o) {
      aot::HostTensor ref;
      if (!read_fixture_tensor(f.cases[c].outputs[o], &ref)) {
        ADD_FAILURE() << "cannot read " << f.cases[c].outputs[o].file;
        return -1;
      }
      Comparison cmp =
          compare_tensors((*outputs)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
      EXPECT_TRUE(cmp.ok) << "case " << c << " output " << o << ": " << cmp.message;
      max_abs = std::max(max_abs, cmp.max_abs);
    }
  }
  return max_abs;
}

}  // namespace

std::string check_training_ir_fixture(const Fixture& f, const std::string& recipe) {
  SCOPED_TRACE(f.id + " (" + recipe + ")");
  char line[512];
  const std::string gap = known_fixture_gap(f.id);
  if (!gap.empty()) {
    EXPECT_FALSE(lowered(recipe, f.pt2).ok())
        << f.id << " now lowers; remove it from known_fixture_gap() (tests/e2e/fixture_options.cc)";
    std::snprintf(line, sizeof(line), "%-50s %-8s skipped: %.300s\n", f.id.c_str(), recipe.c_str(),
                  gap.c_str());
    return line;
  }
  auto session = lowered(recipe, f.pt2);
  if (!session.ok()) {
    ADD_FAILURE() << ::ember::aot::format_error(session.error());
    std::snprintf(line, sizeof(line), "%-50s %-8s NOT LOWERED\n", f.id.c_str(), recipe.c_str());
    return line;
  }
  const std::vector<uint8_t>& pte = *session->pte();
  for (const auto& v : aot::check_pte(pte)) ADD_FAILURE() << v.to_string();
  std::vector<std::string> missing = aot::missing_kernels(pte);
  for (const std::string& m : missing) ADD_FAILURE() << "no portable kernel for " << m;
  const double max_abs = missing.empty() ? run_cases(f, pte) : -1;
  const int partitions = session->last_artifact().delegation.num_partitions;
  std::snprintf(line, sizeof(line), "%-50s %-8s %zu case(s), %d partition(s), max abs %.3g\n",
                f.id.c_str(), recipe.c_str(), f.cases.size(), partitions, max_abs);
  return line;
}

std::vector<Fixture> training_ir_fixtures(bool external) {
  std::vector<Fixture> out;
  for (Fixture& f : list_fixtures()) {
    if (f.dialect == "training_ir" && f.external == external && f.id.rfind("shared:", 0) != 0) {
      out.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace ember::testing
