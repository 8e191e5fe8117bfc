// check_fixtures (see xnnpack_fixture_check.h).
#include "tests/xnnpack_aot/xnnpack_fixture_check.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "aot/recipe/run_method.h"
#include "apps/pte_check/pte_check.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/e2e/fixture_options.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

aot::Result<aot::ExportSession> serialize_xnnpack(const std::string& pt2) {
  EMBER_ASSIGN_OR_RETURN(aot::ExportSession session, xnnpack_session(pt2));
  EMBER_TRY(session.run());
  return session;
}

}  // namespace

// The data-dependent-size fixtures: mostly int64 or possibly empty tensors, so little or
// nothing is delegated, and item_full needs --max_dim; //tests/dynamic:data_dependent_test
// runs them with the xnnpack recipe.
namespace {
bool is_data_dependent_fixture(const std::string& id) {
  for (const char* m : {"nonzero_index.", "masked_select_sum.", "unique_counts.", "item_slice.", "item_full."}) {
    if (id.rfind(m, 0) == 0) return true;
  }
  return false;
}
}  // namespace

int check_fixtures(const std::string& prefix, int partitions) {
  int ran = 0;
  for (const Fixture& f : list_fixtures()) {
    if (f.id.rfind(prefix, 0) != 0) continue;
    if (prefix.empty() && is_data_dependent_fixture(f.id)) continue;
    // "" means every committed fixture: the external ones (dozens of large models since the
    // training-IR exports, issue #13) run in xnnpack_classifiers_test / training_ir_large_test.
    if (prefix.empty() && f.external) continue;
    SCOPED_TRACE(f.id);
    const std::string gap = known_fixture_gap(f.id);
    if (!gap.empty()) {
      EXPECT_FALSE(serialize_xnnpack(f.pt2).ok())
          << f.id << " now lowers; remove it from known_fixture_gap() (tests/e2e/fixture_options.cc)";
      std::printf("%s\n  skipped, not lowered yet: %s\n", f.id.c_str(), gap.c_str());
      continue;
    }
    auto session = serialize_xnnpack(f.pt2);
    if (!session.ok()) {
      ADD_FAILURE() << ::ember::aot::format_error(session.error());
      continue;
    }
    const std::string summary = session->delegation_summary();
    std::printf("%s\n%s", f.id.c_str(), summary.c_str());
    if (prefix.rfind("shared:", 0) != 0) {
      EXPECT_NE(summary.find("xnnpack: "), std::string::npos) << "nothing delegated";
    }
    const aot::DelegationReport& report = session->last_artifact().delegation;
    if (partitions >= 0) {
      EXPECT_EQ(report.num_partitions, partitions) << summary;
    }
    for (const aot::DelegationEntry& e : report.entries) {
      EXPECT_TRUE(e.delegated || !e.reason.empty()) << e.node << " refused without a reason";
    }
    for (const auto& v : aot::check_pte(*session->pte())) ADD_FAILURE() << v.to_string();
    std::vector<std::string> missing = aot::missing_kernels(*session->pte());
    if (!missing.empty()) {
      std::printf("  not run, missing portable kernel %s\n", missing[0].c_str());
      continue;
    }
    // One loaded program for all cases: stateful fixtures expect case k to see the state
    // case k-1 left behind.
    aot::RunOptions ro;
    ro.backends = &xnnpack_registry();
    auto runner = aot::PteRunner::load(*session->pte(), ro);
    if (!runner.ok()) {
      ADD_FAILURE() << ::ember::aot::format_error(runner.error());
      continue;
    }
    double max_abs = 0, max_rel = 0;
    for (size_t c = 0; c < f.cases.size(); ++c) {
      std::vector<aot::HostTensor> inputs(f.cases[c].inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        if (!read_fixture_tensor(f.cases[c].inputs[i], &inputs[i])) ADD_FAILURE() << "input " << i;
      }
      auto outputs = runner.get()->run("forward", inputs);
      if (!outputs.ok()) {
        ADD_FAILURE() << ::ember::aot::format_error(outputs.error());
        break;
      }
      if (outputs->size() != f.cases[c].outputs.size()) {
        ADD_FAILURE() << "output count";
        break;
      }
      for (size_t o = 0; o < outputs->size(); ++o) {
        aot::HostTensor ref;
        if (!read_fixture_tensor(f.cases[c].outputs[o], &ref)) ADD_FAILURE() << "output " << o;
        Comparison cmp = compare_tensors((*outputs)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
        EXPECT_TRUE(cmp.ok) << "case " << c << " output " << o << ": " << cmp.message;
        max_abs = std::max(max_abs, cmp.max_abs);
        max_rel = std::max(max_rel, cmp.max_rel);
      }
    }
    std::printf("  %zu case(s): max abs %.3g, max rel %.3g (atol %g, rtol %g)\n", f.cases.size(), max_abs,
                max_rel, f.atol, f.rtol);
    ++ran;
  }
  return ran;
}

void check_large_model(const std::string& model, int partitions) {
  if (check_fixtures(model + ".core_aten.", partitions) == 0) {
    GTEST_SKIP() << model << ": fixture not found (refgen/fixtures/README.md writes it)";
  }
}

}  // namespace ember::testing
