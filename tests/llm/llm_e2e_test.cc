// Decoder LLMs lower as exported (issue #31). Every fixture of tests/fixtures/llm (tiny
// random-weight Llama, SmolLM, Qwen2/3, Gemma, Phi-3 and GPT-2 exported through transformers'
// TorchExportableModuleForDecoderOnlyLM with a static cache, and export_llama-style Llamas
// with index_put_ / index_copy_ cache writes; training IR and core ATen; dynamic sequence
// length) is lowered with the portable and the xnnpack recipe, checked against the .pte rules
// and run on ONE loaded program: the prefill (5 tokens) then 16 decode steps (1 token each),
// the KV cache living in the program's mutable buffers between runs and written in place (no
// write-back copy of a cache after the last instruction) and no weight stored twice (a tied
// embedding / output matrix once, in both recipes). Each step's logits must
// match PyTorch's (manifest tolerance) and each step's argmax must be the token PyTorch chose.
// The attention of the families FuseKvCacheAttentionPass matches must be llama::custom_sdpa
// (one per layer): the test fails if the rewrite stops firing on them.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/passes/fuse_kv_cache_attention_pass.h"
#include "aot/recipe/decode_report.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/run_method.h"
#include "apps/pte_check/pte_check.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/xnnpack_aot/xnnpack_test_util.h"

namespace ember::testing {
namespace {

using aot::last_argmax;

using aot::HostTensor;

aot::Result<aot::ExportSession> session_for(const std::string& recipe, const std::string& pt2) {
  if (recipe == "xnnpack") return xnnpack_session(pt2);
  aot::RecipeRegistry recipes;
  EMBER_TRY(aot::register_builtin_recipes(&recipes));
  return aot::ExportSession::create(recipes, recipe, pt2, {}, {});
}

// Bytes of the graph's distinct constants (tied parameters share one ConstantData).
size_t distinct_weight_bytes(const aot::Graph& g) {
  std::vector<const aot::ConstantData*> seen;
  size_t total = 0;
  for (size_t v = 0; v < g.num_values(); ++v) {
    const aot::ConstantData* c = g.value(aot::ValueId(v)).tensor.constant.get();
    if (c == nullptr || std::find(seen.begin(), seen.end(), c) != seen.end()) continue;
    seen.push_back(c);
    total += c->bytes.size();
  }
  return total;
}

// llama::custom_sdpa nodes the lowering must make of fixture `id` whose export `exported` has
// `sdpa` scaled_dot_product_attention nodes: all of them for the families the pass matches,
// none for the others (the core-ATen dialect, whose attention torch already decomposed, and
// the export_llama style: decisions 232-233).
int expected_custom_sdpa(const std::string& id, int sdpa) {
  static const char* const kFused[] = {"llm_gemma.", "llm_gpt2.", "llm_llama.", "llm_phi3.",
                                       "llm_qwen2.", "llm_qwen3.", "llm_smollm.", "llm_smollm_135m."};
  for (const char* family : kFused) {
    if (id.rfind(family, 0) == 0 && id.find(".training_ir.") != std::string::npos) return sdpa;
  }
  return 0;
}

int count_sdpa(const aot::Graph& g) {
  int n = 0;
  for (const aot::Node& node : g.nodes()) {
    n += aot::is_aten_op(node, "scaled_dot_product_attention", "default");
  }
  return n;
}

// Lowers `f` with `recipe`, runs every case in order on one program; returns a summary line.
std::string run_fixture(const Fixture& f, const std::string& recipe) {
  auto session = session_for(recipe, f.pt2);
  aot::Error st = session.ok() ? session->run() : session.error();
  if (st != runtime::Error::Ok) {
    ADD_FAILURE() << recipe << ": " << aot::format_error(st);
    return f.id + " [" + recipe + "]: not lowered\n";
  }
  const std::vector<uint8_t>& pte = *session->pte();
  const aot::Graph* lowered = session->find_stage("to_executorch")->artifact().graph.get();
  const int fused = lowered == nullptr ? -1 : aot::count_custom_sdpa(*lowered);
  const int sdpa = count_sdpa(*session->stage(0).artifact().graph);
  EXPECT_EQ(fused, expected_custom_sdpa(f.id, sdpa)) << "llama::custom_sdpa nodes";
  // The KV cache is written in place: no write-back copy of a cache buffer after the last node.
  int cache_writebacks = 0;
  for (const auto& d : session->last_artifact().program->methods[0].debug) {
    const std::string& node = d.origin.node;
    if (node.rfind("writeback:", 0) == 0 && node.find("cache") != std::string::npos &&
        node.find("cumulative") == std::string::npos) {
      ++cache_writebacks;
    }
  }
  EXPECT_EQ(cache_writebacks, 0) << "a KV cache is copied back after every call";
  // Weights once: the program stores no more constant bytes than the export's distinct weights
  // (a tied embedding / output matrix is one storage in the .pt2 and must stay one), give or
  // take the few small constants lowering adds (1/K rows of MeanAsLinearPass, scalars): 1 KiB.
  const size_t weights = distinct_weight_bytes(*session->stage(0).artifact().graph);
  size_t stored = 0;
  for (const auto& c : session->last_artifact().program->constants) stored += c.size();
  for (const auto& d : session->last_artifact().program->named_data) stored += d.data.size();
  EXPECT_LE(stored, weights + 1024) << "constants stored twice (" << weights << " B of weights)";
  for (const auto& v : aot::check_pte(pte)) ADD_FAILURE() << v.to_string();
  aot::RunOptions options;
  if (recipe == "xnnpack") options.backends = &xnnpack_registry();
  auto runner = aot::PteRunner::load(pte, options);
  if (!runner.ok()) {
    ADD_FAILURE() << aot::format_error(runner.error());
    return f.id + ": not loaded\n";
  }
  double max_abs = 0;
  int tokens_ok = 0;
  for (size_t c = 0; c < f.cases.size(); ++c) {
    std::vector<HostTensor> inputs(f.cases[c].inputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      EXPECT_TRUE(read_fixture_tensor(f.cases[c].inputs[i], &inputs[i]));
    }
    auto outputs = runner.get()->run("forward", inputs);
    if (!outputs.ok()) {
      ADD_FAILURE() << "case " << c << ": " << aot::format_error(outputs.error());
      return f.id + ": failed at case " + std::to_string(c) + "\n";
    }
    HostTensor ref;
    EXPECT_TRUE(read_fixture_tensor(f.cases[c].outputs[0], &ref));
    Comparison cmp = compare_tensors((*outputs)[0], ref, false, f.atol, f.rtol);
    EXPECT_TRUE(cmp.ok) << "case " << c << ": " << cmp.message;
    max_abs = std::max(max_abs, cmp.max_abs);
    if (c < f.greedy_tokens.size() && last_argmax((*outputs)[0]) == f.greedy_tokens[c]) {
      ++tokens_ok;
    }
  }
  EXPECT_EQ(tokens_ok, static_cast<int>(f.greedy_tokens.size())) << "greedy tokens differ";
  char line[256];
  std::snprintf(line, sizeof(line),
                "%-48s %-8s %zu steps, logits max abs %.3g, %d/%zu tokens, %d custom_sdpa, "
                ".pte %zu B\n",
                f.id.c_str(), recipe.c_str(), f.cases.size(), max_abs, tokens_ok,
                f.greedy_tokens.size(), fused, pte.size());
  return line;
}

void run_all(bool external, const std::string& recipe) {
  std::string table;
  int ran = 0;
  for (const Fixture& f : list_llm_fixtures()) {
    if (f.external != external) continue;
    SCOPED_TRACE(f.id + " [" + recipe + "]");
    ASSERT_EQ(f.greedy_tokens.size(), f.cases.size());
    table += run_fixture(f, recipe);
    ++ran;
  }
  if (external && ran == 0) {
    GTEST_SKIP() << "no large_fixtures/llm (refgen/fixtures/generate_llm.py)";
  }
  std::printf("%s%d LLM fixtures [%s]\n", table.c_str(), ran, recipe.c_str());
  if (!external) {
    EXPECT_GE(ran, 8);
  }
}

TEST(LlmE2eTest, PortablePrefillAndGreedyDecodeMatchPyTorch) { run_all(false, "portable"); }
TEST(LlmE2eTest, XnnpackPrefillAndGreedyDecodeMatchPyTorch) { run_all(false, "xnnpack"); }
TEST(LlmE2eTest, LargeExportsMatchWhenPresent) { run_all(true, "xnnpack"); }
TEST(LlmE2eTest, LargeExportsMatchWhenPresentPortable) { run_all(true, "portable"); }

}  // namespace
}  // namespace ember::testing
