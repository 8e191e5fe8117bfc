// End-to-end: every .pt2 fixture is lowered with the portable recipe (ExportSession),
// checked against the .pte format rules (aot/pte_check), run on Ember's runtime and its
// outputs compared with PyTorch's reference outputs (manifest tolerance:
// |got - ref| <= atol + rtol |ref|, integer/bool exact). Also: lowering is byte-for-byte
// deterministic, the arena never undercuts the lower bound, and a malformed .pt2 gives a
// named error. A summary table (max errors, arena vs lower bound) is printed.
//
// Programs whose operators the portable kernel library does not provide yet are lowered
// and checked but not run; the summary names the missing kernels.
//
// The PT2E-quantized fixtures (tests/fixtures/pt2_quant) go the same way and are compared
// with the converted model's outputs in quantization steps (manifest tolerance: within
// `quant_steps` steps on at least `min_fraction` of the elements).
#include <gtest/gtest.h>

#include <cstdio>
#include <map>

#include <nlohmann/json.hpp>

#include "aot/frontend/zip_test_util.h"
#include "apps/pte_check/pte_check.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/run_method.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/e2e/fixture_options.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using runtime::Error;

using aot::ExportSession;
using aot::HostTensor;

// Fixtures the toolchain knowingly cannot lower yet, with the reason (fixture_options.h).
// The test fails if one of them starts lowering, so the list is kept honest.
bool is_known_unsupported(const std::string& id, std::string* reason) {
  *reason = known_fixture_gap(id);
  return !reason->empty();
}

aot::Result<ExportSession> lower(const std::string& pt2) {
  aot::RecipeRegistry recipes;
  aot::Error st = aot::register_builtin_recipes(&recipes);
  if (st != Error::Ok) return st;
  aot::SessionOptions so;
  so.runner = [](const std::vector<uint8_t>& pte, const std::string& m,
                 const std::vector<HostTensor>& in) { return aot::run_pte_method(pte, m, in); };
  auto session = ExportSession::create(recipes, "portable", pt2, fixture_recipe_options(pt2),
                                       std::move(so));
  if (!session.ok()) return session.error();
  st = session->run();
  if (st != Error::Ok) return st;
  return std::move(session.get());
}

std::string join(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ", ") + s;
  return out;
}

TEST(E2eTest, EveryFixtureLowersRunsAndMatchesPyTorch) {
  std::vector<Fixture> fixtures = list_fixtures();
  ASSERT_FALSE(fixtures.empty()) << "no .pt2 fixtures found";
  std::string table;
  double worst_ratio = 0;
  int ran = 0;
  for (const Fixture& f : fixtures) {
    // The external training-IR exports (issue #13: torchvision models, both torch versions)
    // run in //tests/xnnpack_aot:training_ir_large_test with both recipes; here they would
    // double this test's time on a machine that has them.
    if (f.external && f.dialect == "training_ir") continue;
    SCOPED_TRACE(f.id);
    std::string reason;
    bool expect_fail = is_known_unsupported(f.id, &reason);
    auto session = lower(f.pt2);
    if (expect_fail) {
      EXPECT_FALSE(session.ok()) << f.id << " now lowers; remove it from known_fixture_gap() (tests/e2e/fixture_options.cc)";
      table += f.id + ": not lowered (" + reason + ")\n";
      continue;
    }
    if (!session.ok()) {
      ADD_FAILURE() << ::ember::aot::format_error(session.error());
      continue;
    }
    const std::vector<uint8_t>& pte = *session->pte();
    auto violations = aot::check_pte(pte);
    for (const auto& v : violations) ADD_FAILURE() << v.to_string();
    const aot::MemoryPlanReport& mem = session->memory_report();
    EXPECT_GE(mem.arena_size, mem.lower_bound);
    worst_ratio = std::max(worst_ratio, mem.ratio());
    char line[512];
    std::snprintf(line, sizeof(line), "%-50s arena %8llu B / bound %8llu B = %.3f", f.id.c_str(),
                  static_cast<unsigned long long>(mem.arena_size),
                  static_cast<unsigned long long>(mem.lower_bound), mem.ratio());
    table += line;
    std::vector<std::string> missing = aot::missing_kernels(pte);
    if (!missing.empty()) {
      table += "  NOT RUN, missing kernels: " + join(missing) + "\n";
      continue;
    }
    // One loaded program for all cases: stateful fixtures (mutable buffers) expect case k
    // to see the state case k-1 left behind.
    auto runner = aot::PteRunner::load(pte);
    ASSERT_TRUE(runner.ok()) << ::ember::aot::format_error(runner.error());
    double max_abs = 0, max_rel = 0;
    for (size_t c = 0; c < f.cases.size(); ++c) {
      std::vector<HostTensor> inputs(f.cases[c].inputs.size());
      for (size_t i = 0; i < inputs.size(); ++i) {
        ASSERT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i])) << f.cases[c].inputs[i].file;
      }
      auto outputs = c == 0 && !f.stateful ? session->run_method("forward", inputs)
                                           : runner.get()->run("forward", inputs);
      ASSERT_TRUE(outputs.ok()) << "case " << c << ": " << ::ember::aot::format_error(outputs.error());
      ASSERT_EQ(outputs->size(), f.cases[c].outputs.size()) << "case " << c;
      for (size_t o = 0; o < outputs->size(); ++o) {
        HostTensor ref;
        ASSERT_TRUE(read_fixture_tensor(f.cases[c].outputs[o], &ref));
        Comparison cmp = compare_tensors((*outputs)[o], ref, f.cases[c].outputs[o].exact, f.atol, f.rtol);
        EXPECT_TRUE(cmp.ok) << "case " << c << " output " << o << ": " << cmp.message;
        max_abs = std::max(max_abs, cmp.max_abs);
        max_rel = std::max(max_rel, cmp.max_rel);
      }
    }
    ++ran;
    std::snprintf(line, sizeof(line), "  ran %zu case(s): max abs %.3g, max rel %.3g\n",
                  f.cases.size(), max_abs, max_rel);
    table += line;
  }
  std::printf("%s\nworst arena/lower-bound ratio %.3f; %d of %zu fixtures ran\n", table.c_str(),
              worst_ratio, ran, fixtures.size());
  EXPECT_GT(ran, 0);
}

// Lowers, checks and runs one quantized fixture; returns a summary line.
std::string run_quantized_fixture(const Fixture& f) {
  auto session = lower(f.pt2);
  if (!session.ok()) {
    ADD_FAILURE() << ::ember::aot::format_error(session.error());
    return f.id + ": not lowered\n";
  }
  const std::vector<uint8_t>& pte = *session->pte();
  for (const auto& v : aot::check_pte(pte)) ADD_FAILURE() << v.to_string();
  std::vector<std::string> missing = aot::missing_kernels(pte);
  EXPECT_TRUE(missing.empty()) << "missing kernels: " << join(missing);
  if (!missing.empty()) return f.id + ": not run\n";
  OutputStats stats;
  for (size_t c = 0; c < f.cases.size(); ++c) {
    std::vector<HostTensor> inputs(f.cases[c].inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i])) << f.cases[c].inputs[i].file;
    }
    auto outputs = session->run_method("forward", inputs);
    if (!outputs.ok()) {
      ADD_FAILURE() << "case " << c << ": " << ::ember::aot::format_error(outputs.error());
      continue;
    }
    EXPECT_EQ(outputs->size(), f.cases[c].outputs.size()) << "case " << c;
    for (size_t o = 0; o < std::min(outputs->size(), f.cases[c].outputs.size()); ++o) {
      HostTensor ref;
      EXPECT_TRUE(read_fixture_tensor(f.cases[c].outputs[o], &ref)) << f.cases[c].outputs[o].file;
      const std::string why =
          compare_output((*outputs)[o], ref, f.cases[c].outputs[o], f, f.quant_steps, &stats);
      EXPECT_EQ(why, "") << "case " << c << " output " << o;
    }
  }
  char line[256];
  std::snprintf(line, sizeof(line),
                "%-45s %zu case(s): max %.3g steps, %.4f within %.0f step(s); float outputs max "
                "abs %.3g\n",
                f.id.c_str(), f.cases.size(), stats.max_steps, stats.within, f.quant_steps,
                stats.max_abs);
  return line;
}

TEST(E2eTest, QuantizedFixturesMatchTheConvertedModel) {
  std::string table;
  int ran = 0;
  for (const Fixture& f : list_quantized_fixtures()) {
    if (f.external) continue;
    SCOPED_TRACE(f.id);
    table += run_quantized_fixture(f);
    ++ran;
  }
  std::printf("%s%d quantized fixtures\n", table.c_str(), ran);
  EXPECT_GE(ran, 6);
}

// The full-width MobileNetV2 is not committed: it runs when large_fixtures/pt2_quant holds it.
TEST(E2eTest, LargeQuantizedFixturesMatchWhenPresent) {
  std::string table;
  int ran = 0;
  for (const Fixture& f : list_quantized_fixtures()) {
    if (!f.external) continue;
    SCOPED_TRACE(f.id);
    table += run_quantized_fixture(f);
    ++ran;
  }
  if (ran == 0) {
    GTEST_SKIP() << "no large_fixtures/pt2_quant beside the checkout and EMBER_LARGE_FIXTURES_DIR "
                    "unset (write it with refgen/fixtures/generate_quant_pt2.py --large-out)";
  }
  std::printf("%s", table.c_str());
}

// A real quantized program made inconsistent: the first per-channel dequantize gets axis 1
// (16 channels, 32 scales) and one quantize becomes quantize_per_token. Lowering names both
// nodes with their source lines.
TEST(E2eTest, QuantizedBadInputGivesNamedErrors) {
  std::string pt2;
  for (const Fixture& f : list_quantized_fixtures()) {
    if (f.id == "q8_mlp_per_channel.training_ir.torch2_6") pt2 = f.pt2;
  }
  ASSERT_FALSE(pt2.empty());
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(pt2, &bytes));
  aot::testing::ZipEntries entries = aot::testing::unzip_all(bytes);
  std::vector<uint8_t>* program = aot::testing::find_entry(entries, "serialized_exported_program.json");
  ASSERT_NE(program, nullptr);
  nlohmann::json j = nlohmann::json::parse(aot::testing::as_text(*program));
  bool axis_done = false;
  for (auto& node : j["graph_module"]["graph"]["nodes"]) {
    const std::string target = node["target"];
    if (!axis_done && target.find("dequantize_per_channel") != std::string::npos) {
      for (auto& in : node["inputs"]) {
        if (in["name"] == "axis") in["arg"] = {{"as_int", 1}};
      }
      axis_done = true;
    }
    if (node["outputs"][0]["as_tensor"]["name"] == "quantize_per_tensor_1") {
      node["target"] = "torch.ops.quantized_decomposed.quantize_per_token.default";
    }
  }
  *program = aot::testing::as_bytes(j.dump());
  const std::string path = ::testing::TempDir() + "/bad_quantized.pt2";
  std::vector<uint8_t> zip = aot::testing::zip_all(entries);
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fwrite(zip.data(), 1, zip.size(), f);
  std::fclose(f);
  auto session = lower(path);
  ASSERT_FALSE(session.ok());
  EXPECT_EQ(session.error(), Error::NotSupported);
  const std::string m = ::ember::runtime::last_error_message();
  EXPECT_NE(m.find("2 quantized node(s) cannot be lowered"), std::string::npos) << m;
  EXPECT_NE(m.find("(quantized_decomposed::dequantize_per_channel.default, pt2_models.py:"),
            std::string::npos) << m;
  EXPECT_NE(m.find("input 'b__frozen_param0' i8[32, 16] has 16 channels along axis 1"),
            std::string::npos) << m;
  EXPECT_NE(m.find("node 'quantize_per_tensor_1' (quantized_decomposed::quantize_per_token.default, "
                   "pt2_models.py:"),
            std::string::npos) << m;
  EXPECT_NE(m.find("quantized op not supported; Ember lowers"), std::string::npos) << m;
}

TEST(E2eTest, LoweringIsByteForByteDeterministic) {
  int checked = 0;
  for (const Fixture& f : list_fixtures()) {
    std::string reason;
    if (is_known_unsupported(f.id, &reason)) continue;
    auto a = lower(f.pt2);
    auto b = lower(f.pt2);
    ASSERT_TRUE(a.ok() && b.ok()) << f.id;
    EXPECT_TRUE(*a->pte() == *b->pte()) << f.id << ": two lowerings differ";
    if (++checked == 6) break;  // a handful keeps the test fast; all fixtures lower above
  }
  EXPECT_GT(checked, 0);
}

TEST(E2eTest, MalformedPt2GivesNamedError) {
  std::string path = ::testing::TempDir() + "/bad.pt2";
  FILE* f = std::fopen(path.c_str(), "wb");
  ASSERT_NE(f, nullptr);
  std::fputs("PK\x03\x04 this is not a zip", f);
  std::fclose(f);
  auto session = lower(path);
  ASSERT_FALSE(session.ok());
  std::string name = aot::error_name(session.error());
  EXPECT_NE(name, "Ok");
  EXPECT_NE(name, "Unknown");
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("bad.pt2"), std::string::npos)
      << std::string(::ember::runtime::last_error_message());
}

}  // namespace
}  // namespace ember::testing
