// lower --llm_last_logits (aot/passes/last_logits_pass.h) end to end on lowered fixture decoders
// (a tied-head transformers SmolLM, an export_llama-style Llama with index_put_ cache writes, an
// untied-head Phi-3), with the portable and xnnpack recipes and a weight-quantized one:
//   - the program's logits output is [1, 1, vocab] where the full program's is [1, s, vocab];
//   - llm::PteLogitsModel loads and runs it (its last row is the only row);
//   - the prefill's logits equal the full program's last row (fixture tolerance), and 16
//     greedy decode steps give the full program's tokens (and, in float, PyTorch's);
//   - the planned memory does not grow.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/recipe/export_session.h"
#include "apps/executor_runner/registration.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "llm/runner/pte_logits_model.h"
#include "runtime/kernel/kernel_registry.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/llm/llm_test_support.h"

namespace ember::testing {
namespace {

int32_t argmax(const std::vector<float>& logits) {
  int32_t best = 0;
  for (int32_t i = 1; i < static_cast<int32_t>(logits.size()); ++i) {
    if (logits[i] > logits[best]) best = i;
  }
  return best;
}

struct Lowered {
  std::string path;
  std::string logits_shape;  // the transform stage's user output
};

// Lowers `f` with `recipe` (last_logits on or off) into TEST_TMPDIR.
Lowered lower(const Fixture& f, const std::string& recipe, bool last_logits) {
  aot::RecipeRegistry recipes;
  EXPECT_EQ(aot::register_builtin_recipes(&recipes), runtime::Error::Ok);
  EXPECT_EQ(backends::xnnpack::register_xnnpack_recipe(&recipes), runtime::Error::Ok);
  aot::RecipeOptions options;
  options.last_logits = last_logits;
  auto session = aot::ExportSession::create(recipes, recipe, f.pt2, options, {});
  aot::Error st = session.ok() ? session->run() : session.error();
  if (st != runtime::Error::Ok) {
    ADD_FAILURE() << f.id << " " << recipe << ": " << aot::format_error(st);
    return {};
  }
  Lowered out;
  const aot::Graph& g = *session->find_stage("transform")->artifact().graph;
  for (size_t o = 0; o < g.outputs().size(); ++o) {
    if (g.signature().outputs[o].kind == aot::OutputKind::UserOutput) {
      out.logits_shape = g.value(aot::tensor_of(g.outputs()[o])).tensor.to_string();
    }
  }
  const char* tmp = std::getenv("TEST_TMPDIR");
  out.path = std::string(tmp ? tmp : "/tmp") + "/" + f.id + "." + recipe +
             (last_logits ? ".last" : ".full") + ".pte";
  std::ofstream file(out.path, std::ios::binary);
  file.write(reinterpret_cast<const char*>(session->pte()->data()), session->pte()->size());
  if (!file) out.path.clear();
  return out;
}

// The prefill's logits, then greedy decoding for `steps` tokens.
void generate(llm::PteLogitsModel& model, const std::vector<int32_t>& prompt, int steps,
              std::vector<float>* prefill_logits, std::vector<int64_t>* tokens) {
  auto first = model.forward(prompt, 0);
  ASSERT_TRUE(first.ok()) << runtime::last_error_message();
  *prefill_logits = first.get();
  std::vector<float> logits = first.get();
  int32_t pos = static_cast<int32_t>(prompt.size());
  for (int s = 0; s < steps; ++s) {
    tokens->push_back(argmax(logits));
    if (s + 1 == steps) break;
    auto next = model.forward({static_cast<int32_t>(tokens->back())}, pos++);
    ASSERT_TRUE(next.ok()) << runtime::last_error_message();
    logits = std::move(next.get());
  }
}

void check(const std::string& id, const std::string& recipe, bool float_recipe) {
  const Fixture* f = nullptr;
  const std::vector<Fixture> all = list_llm_fixtures();
  for (const Fixture& x : all) {
    if (x.id == id) f = &x;
  }
  if (f == nullptr) GTEST_SKIP() << id << " is not present";
  SCOPED_TRACE(id + " " + recipe);
  const Lowered full = lower(*f, recipe, false);
  const Lowered last = lower(*f, recipe, true);
  ASSERT_FALSE(full.path.empty());
  ASSERT_FALSE(last.path.empty());
  EXPECT_NE(full.logits_shape.find("[1, s"), std::string::npos) << full.logits_shape;
  EXPECT_EQ(last.logits_shape.rfind("f32[1, 1, ", 0), 0u) << last.logits_shape;

  auto full_model = llm::PteLogitsModel::load(full.path, registered());
  ASSERT_TRUE(full_model.ok()) << runtime::last_error_message();
  auto last_model = llm::PteLogitsModel::load(last.path, registered());
  ASSERT_TRUE(last_model.ok()) << runtime::last_error_message();
  EXPECT_EQ(last_model.get()->vocab_size(), full_model.get()->vocab_size());
  EXPECT_EQ(last_model.get()->max_seq_len(), full_model.get()->max_seq_len());

  const std::vector<int32_t> prompt = prompt_of(*f);
  ASSERT_GT(prompt.size(), 1u);  // a prefill of several positions: the slice matters
  const int steps = static_cast<int>(f->greedy_tokens.size());
  std::vector<float> full_logits, last_logits;
  std::vector<int64_t> full_tokens, last_tokens;
  generate(*full_model.get(), prompt, steps, &full_logits, &full_tokens);
  generate(*last_model.get(), prompt, steps, &last_logits, &last_tokens);
  ASSERT_EQ(last_logits.size(), full_logits.size());
  double worst = 0;
  for (size_t i = 0; i < full_logits.size(); ++i) {
    const double err = std::fabs(double(last_logits[i]) - full_logits[i]);
    const double allowed = f->atol + f->rtol * std::fabs(full_logits[i]);
    worst = std::max(worst, err / allowed);
  }
  EXPECT_LE(worst, 1.0) << "prefill logits differ from the full program's last row";
  EXPECT_EQ(last_tokens, full_tokens);
  if (float_recipe) {
    EXPECT_EQ(last_tokens, f->greedy_tokens);
  }

  auto full_mem = llm::estimate_memory(full.path, registered());
  auto last_mem = llm::estimate_memory(last.path, registered());
  ASSERT_TRUE(full_mem.ok() && last_mem.ok()) << runtime::last_error_message();
  // Never more (on these tiny shapes the [s, vocab] logits are not the arena's peak, so not
  // necessarily less; on SmolLM2-135M they are 25 MB at the bound: benchmarks/llm/README.md).
  EXPECT_LE(last_mem.get().planned_bytes, full_mem.get().planned_bytes);
  std::printf("%s %s: planned %llu -> %llu bytes, worst prefill error %.3g of the tolerance\n",
              id.c_str(), recipe.c_str(),
              static_cast<unsigned long long>(full_mem.get().planned_bytes),
              static_cast<unsigned long long>(last_mem.get().planned_bytes), worst);
}

const char* kTied = "llm_smollm.training_ir.torch2_14";
const char* kExportLlama = "llm_et_llama_index_put.core_aten.torch2_14";
const char* kUntied = "llm_phi3.training_ir.torch2_14";

TEST(LlmLastLogitsTest, TiedHeadPortable) { check(kTied, "portable", true); }
TEST(LlmLastLogitsTest, TiedHeadXnnpack) { check(kTied, "xnnpack", true); }
TEST(LlmLastLogitsTest, ExportLlamaPortable) { check(kExportLlama, "portable", true); }
TEST(LlmLastLogitsTest, ExportLlamaXnnpack) { check(kExportLlama, "xnnpack", true); }
TEST(LlmLastLogitsTest, UntiedHeadPortable) { check(kUntied, "portable", true); }
TEST(LlmLastLogitsTest, UntiedHeadXnnpack) { check(kUntied, "xnnpack", true); }
TEST(LlmLastLogitsTest, QuantizedHeadXnnpack8da8w) { check(kTied, "xnnpack-8da8w", false); }
TEST(LlmLastLogitsTest, QuantizedHeadPortable8da4w) { check(kUntied, "portable-8da4w", false); }

}  // namespace
}  // namespace ember::testing
