// The LLM runner on real lowered decoders (issue #32 part 2): tests/fixtures/llm's tiny
// transformers Llama (input ids + cache position) and export_llama-style Llama (tokens +
// input_pos) lowered with the portable recipe and run through llm::PteLogitsModel and
// llm::Session:
//   - a prefill and greedy decode steps give the tokens eager PyTorch chose (greedy_tokens);
//   - rewinding: after decoding 8 tokens and then 3 unrelated ones, going back to the position
//     after the 8th and continuing gives the uninterrupted run's tokens, token for token, and its
//     logits bit for bit (the stale cache slots are rewritten or never read).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

#include "aot/recipe/export_session.h"
#include "apps/executor_runner/registration.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"
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

// Lowers the fixture with the portable recipe into TEST_TMPDIR; "" on failure.
std::string lower(const Fixture& f) {
  aot::RecipeRegistry recipes;
  if (aot::register_builtin_recipes(&recipes) != runtime::Error::Ok) return "";
  auto session = aot::ExportSession::create(recipes, "portable", f.pt2, {}, {});
  aot::Error st = session.ok() ? session->run() : session.error();
  if (st != runtime::Error::Ok) {
    ADD_FAILURE() << aot::format_error(st);
    return "";
  }
  const char* tmp = std::getenv("TEST_TMPDIR");
  std::string path = std::string(tmp ? tmp : "/tmp") + "/" + f.id + ".pte";
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(session->pte()->data()), session->pte()->size());
  return out ? path : "";
}

// Greedy decoding on `session` from its current logits; appends `steps` tokens.
void decode(llm::Session& session, std::vector<float> logits, int steps,
            std::vector<int32_t>* tokens, std::vector<std::vector<float>>* all_logits) {
  for (int s = 0; s < steps; ++s) {
    tokens->push_back(argmax(logits));
    all_logits->push_back(logits);
    if (s + 1 == steps) break;
    auto next = session.append({tokens->back()});
    ASSERT_TRUE(next.ok()) << runtime::last_error_message();
    logits = std::move(next.get());
  }
}

void check_fixture(const std::string& id) {
  const Fixture* f = nullptr;
  std::vector<Fixture> all = list_llm_fixtures();
  for (const Fixture& x : all) {
    if (x.id == id) f = &x;
  }
  ASSERT_NE(f, nullptr) << id;
  const std::string pte = lower(*f);
  ASSERT_FALSE(pte.empty());
  auto model = llm::PteLogitsModel::load(pte, registered());
  ASSERT_TRUE(model.ok()) << runtime::last_error_message();
  const std::vector<int32_t> prompt = prompt_of(*f);
  const int steps = static_cast<int>(f->greedy_tokens.size());

  // Uninterrupted: PyTorch's tokens.
  llm::Session session(*model.get(), model.get()->max_seq_len(), model.get()->context_length());
  auto logits = session.append(prompt);
  ASSERT_TRUE(logits.ok()) << runtime::last_error_message();
  std::vector<int32_t> tokens;
  std::vector<std::vector<float>> step_logits;
  decode(session, logits.get(), steps, &tokens, &step_logits);
  EXPECT_EQ(std::vector<int64_t>(tokens.begin(), tokens.end()), f->greedy_tokens);

  // Interrupted on the same program: 8 tokens, 3 unrelated ones, back to after the 8th.
  const int32_t kept = 8;
  const int32_t resume_at = static_cast<int32_t>(prompt.size()) + kept - 1;
  // Back to position 0 (the cache keeps the first run's values until they are rewritten);
  // truncating first makes the whole prompt run again as one prefill, not a reused prefix.
  ASSERT_EQ(session.truncate(0), runtime::Error::Ok);
  ASSERT_TRUE(session.forward(prompt, 0).ok());
  std::vector<int32_t> first(tokens.begin(), tokens.begin() + kept);
  for (int32_t i = 0; i + 1 < kept; ++i) ASSERT_TRUE(session.append({first[i]}).ok());
  ASSERT_TRUE(session.append({first[kept - 1], 3, 1, 4}).ok());
  ASSERT_EQ(session.position(), resume_at + 4);
  auto resumed = session.forward({first[kept - 1]}, resume_at);
  ASSERT_TRUE(resumed.ok()) << runtime::last_error_message();
  EXPECT_EQ(session.position(), resume_at + 1);
  std::vector<int32_t> rest;
  std::vector<std::vector<float>> rest_logits;
  decode(session, resumed.get(), steps - kept, &rest, &rest_logits);
  EXPECT_EQ(rest, std::vector<int32_t>(tokens.begin() + kept, tokens.end()));
  for (size_t s = 0; s < rest_logits.size(); ++s) {
    EXPECT_EQ(rest_logits[s], step_logits[kept + s]) << "step " << kept + s << " logits differ";
  }
  std::printf(
      "%s: %d greedy tokens = PyTorch's; rewound after %d and 3 others, %zu resumed "
      "tokens and logits identical\n",
      id.c_str(), steps, kept, rest.size());
}

TEST(LlmSessionTest, TransformersLlamaGreedyAndRewind) {
  check_fixture("llm_llama.core_aten.torch2_14");
}

TEST(LlmSessionTest, ExportLlamaGreedyAndRewind) {
  check_fixture("llm_et_llama_index_copy.core_aten.torch2_14");
}

}  // namespace
}  // namespace ember::testing
