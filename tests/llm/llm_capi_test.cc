// The LLM C API (bindings/c/include/ember/ember_llm.h) on a lowered fixture decoder (the
// transformers Llama of tests/fixtures/llm, portable recipe): greedy generation from the
// fixture's prompt gives PyTorch's tokens and streams them as text; the cancel flag stops the
// stream; a seeded sampled run repeats after ember_llm_reset; bad calls are named errors.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "aot/recipe/export_session.h"
#include "ember/ember_llm.h"
#include "tests/e2e/fixture_corpus.h"

namespace ember::testing {
namespace {

const char* kId = "llm_llama.core_aten.torch2_14";

struct Lowered {
  std::string pte;
  std::vector<int32_t> prompt;
  std::vector<int32_t> greedy;  // PyTorch's
};

Lowered lower_fixture() {
  Lowered out;
  for (const Fixture& f : list_llm_fixtures()) {
    if (f.id != kId) continue;
    aot::RecipeRegistry recipes;
    EXPECT_EQ(aot::register_builtin_recipes(&recipes), runtime::Error::Ok);
    auto session = aot::ExportSession::create(recipes, "portable", f.pt2, {}, {});
    EXPECT_TRUE(session.ok());
    if (!session.ok() || session->run() != runtime::Error::Ok) return out;
    const char* tmp = std::getenv("TEST_TMPDIR");
    out.pte = std::string(tmp ? tmp : "/tmp") + "/capi_llm.pte";
    std::ofstream file(out.pte, std::ios::binary);
    file.write(reinterpret_cast<const char*>(session->pte()->data()), session->pte()->size());
    aot::HostTensor ids;
    EXPECT_TRUE(read_fixture_tensor(f.cases[0].inputs[0], &ids));
    for (int64_t i = 0; i < ids.numel(); ++i) {
      int64_t v;
      std::memcpy(&v, ids.bytes.data() + 8 * i, 8);
      out.prompt.push_back(static_cast<int32_t>(v));
    }
    out.greedy.assign(f.greedy_tokens.begin(), f.greedy_tokens.end());
  }
  return out;
}

struct Stream {
  std::string text;
  int pieces = 0;
  int cancel_after = -1;
  volatile int32_t* cancel = nullptr;
};

int32_t on_text(const char* text, size_t size, void* user_data) {
  auto* s = static_cast<Stream*>(user_data);
  s->text.append(text, size);
  if (++s->pieces == s->cancel_after) *s->cancel = 1;
  return 1;
}

std::vector<int32_t> generated(const ember_llm* llm) {
  std::vector<int32_t> tokens(ember_llm_generated_tokens(llm, nullptr, 0));
  ember_llm_generated_tokens(llm, tokens.data(), tokens.size());
  return tokens;
}

TEST(LlmCapiTest, GreedyStreamsPyTorchsTokensAndCancelStops) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm* llm = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &llm), EMBER_OK)
      << ember_last_error_message();
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = static_cast<int32_t>(fixture.greedy.size());
  Stream stream;
  ASSERT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               on_text, &stream, nullptr),
            EMBER_OK)
      << ember_last_error_message();
  EXPECT_EQ(generated(llm), fixture.greedy);
  std::string want;
  for (int32_t t : fixture.greedy) want += std::to_string(t) + " ";
  EXPECT_EQ(stream.text, want);

  // Cancel after 3 pieces of text: nothing more is delivered.
  volatile int32_t cancel = 0;
  Stream cut;
  cut.cancel_after = 3;
  cut.cancel = &cancel;
  ASSERT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               on_text, &cut, &cancel),
            EMBER_OK);
  EXPECT_EQ(cut.pieces, 3);
  std::string first3;
  for (int i = 0; i < 3; ++i) first3 += std::to_string(fixture.greedy[i]) + " ";
  EXPECT_EQ(cut.text, first3);

  // A seeded sampled run repeats, also after a reset.
  config.temperature = 1.0f;
  config.top_k = 20;
  config.seed = 7;
  ASSERT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               nullptr, nullptr, nullptr),
            EMBER_OK);
  const std::vector<int32_t> sampled = generated(llm);
  ASSERT_EQ(ember_llm_reset(llm), EMBER_OK);
  ASSERT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               nullptr, nullptr, nullptr),
            EMBER_OK);
  EXPECT_EQ(generated(llm), sampled);
  EXPECT_NE(sampled, fixture.greedy);

  // Text prompts go through the tokenizer (here: decimal ids).
  config.temperature = 0;
  Stream from_text;
  ASSERT_EQ(ember_llm_generate(llm, "", nullptr, 0, &config, on_text, &from_text, nullptr),
            EMBER_INVALID_ARGUMENT);  // an empty prompt: the context policy's named error
  ember_llm_destroy(llm);
}

// Another thread sets the cancel flag while the callback waits for it after the second piece:
// the third piece is never delivered, and generation returns.
struct Handshake {
  std::atomic<int> pieces{0};
  volatile int32_t cancel = 0;
};

int32_t wait_for_cancel(const char*, size_t, void* user_data) {
  auto* h = static_cast<Handshake*>(user_data);
  if (h->pieces.fetch_add(1) + 1 == 2) {
    while (h->cancel == 0) std::this_thread::yield();
  }
  return 1;
}

TEST(LlmCapiTest, CancelFromAnotherThread) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm* llm = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &llm), EMBER_OK);
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = 16;
  Handshake h;
  std::thread canceller([&h] {
    while (h.pieces.load() < 2) std::this_thread::yield();
    h.cancel = 1;
  });
  EXPECT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               wait_for_cancel, &h, &h.cancel),
            EMBER_OK);
  canceller.join();
  EXPECT_EQ(h.pieces.load(), 2);
  ember_llm_destroy(llm);
}

std::vector<int32_t> session_tokens(const ember_llm* llm) {
  std::vector<int32_t> tokens(ember_llm_session_tokens(llm, nullptr, 0));
  ember_llm_session_tokens(llm, tokens.data(), tokens.size());
  return tokens;
}

ember_llm_stats stats_of(const ember_llm* llm) {
  ember_llm_stats stats;
  EXPECT_EQ(ember_llm_get_stats(llm, &stats), EMBER_OK);
  return stats;
}

// A sampled generation of 12 tokens equals 6 generated and saved by one handle and 6 more
// continued by another handle (another load of the program) that restored the file; the
// restored prompt is not run again (stats). A damaged file is refused and changes nothing.
TEST(LlmCapiTest, SaveRestoreContinueAndStats) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.temperature = 0.8f;
  config.top_k = 30;
  config.seed = 9;
  config.max_new_tokens = 12;
  ember_llm* whole = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &whole), EMBER_OK);
  ASSERT_EQ(ember_llm_generate(whole, nullptr, fixture.prompt.data(), fixture.prompt.size(),
                               &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  const std::vector<int32_t> uninterrupted = generated(whole);
  ASSERT_EQ(uninterrupted.size(), 12u);
  ember_llm_stats stats = stats_of(whole);
  EXPECT_EQ(stats.prompt_tokens, static_cast<int32_t>(fixture.prompt.size()));
  EXPECT_EQ(stats.prefill_evaluated, stats.prompt_tokens);
  EXPECT_EQ(stats.prefill_reused, 0);
  EXPECT_EQ(stats.generated_tokens, 12);
  EXPECT_EQ(stats.decode_steps, 12);  // the last token runs too: the conversation goes on
  EXPECT_EQ(stats.position, stats.prompt_tokens + 12);
  EXPECT_GT(stats.prefill_ms, 0.0);
  EXPECT_GT(stats.decode_ms, 0.0);
  EXPECT_GT(stats.time_to_first_token_ms, 0.0);
  ember_llm_destroy(whole);

  const char* tmp = std::getenv("TEST_TMPDIR");
  const std::string file = std::string(tmp ? tmp : "/tmp") + "/capi.session";
  ember_llm* first = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &first), EMBER_OK);
  config.max_new_tokens = 6;
  ASSERT_EQ(ember_llm_generate(first, nullptr, fixture.prompt.data(), fixture.prompt.size(),
                               &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  std::vector<int32_t> joined = generated(first);
  ASSERT_EQ(ember_llm_save_session(first, file.c_str()), EMBER_OK) << ember_last_error_message();
  ember_llm_destroy(first);

  ember_llm* second = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &second), EMBER_OK);
  ASSERT_EQ(ember_llm_load_session(second, file.c_str()), EMBER_OK) << ember_last_error_message();
  EXPECT_EQ(ember_llm_session_tokens(second, nullptr, 0), fixture.prompt.size() + 6);
  ASSERT_EQ(ember_llm_continue(second, nullptr, nullptr, 0, &config, nullptr, nullptr, nullptr),
            EMBER_OK)
      << ember_last_error_message();
  const std::vector<int32_t> rest = generated(second);
  joined.insert(joined.end(), rest.begin(), rest.end());
  EXPECT_EQ(joined, uninterrupted);
  stats = stats_of(second);
  EXPECT_EQ(stats.prefill_evaluated, 0);
  EXPECT_EQ(stats.prefill_reused, static_cast<int32_t>(fixture.prompt.size() + 6));

  // Continuing with two more ids runs only those two.
  const int32_t more[2] = {3, 4};
  const std::vector<int32_t> before = session_tokens(second);
  ASSERT_EQ(ember_llm_continue(second, nullptr, more, 2, &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  stats = stats_of(second);
  EXPECT_EQ(stats.prefill_evaluated, 2);
  EXPECT_EQ(stats.prefill_reused, static_cast<int32_t>(before.size()));

  // A damaged file: a named error, the conversation unchanged.
  const std::vector<int32_t> now = session_tokens(second);
  {
    std::fstream f(file, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('\x7f');
  }
  EXPECT_EQ(ember_llm_load_session(second, file.c_str()), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(std::string(ember_last_error_message()).find("checksum"), std::string::npos)
      << ember_last_error_message();
  EXPECT_EQ(session_tokens(second), now);
  ember_llm_destroy(second);
}

// Rewind: back to 4 tokens after the prompt, continuing gives the rest of the greedy run.
// Fork: a copy continues like the original. Two conversations of one loaded program generate
// on two threads at once, each its own tokens; the first handle may go before the second.
TEST(LlmCapiTest, RewindForkAndTwoSessionsAtOnce) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = 8;
  ember_llm* llm = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &llm), EMBER_OK);
  ASSERT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               nullptr, nullptr, nullptr),
            EMBER_OK);
  ASSERT_EQ(ember_llm_rewind(llm, static_cast<int32_t>(fixture.prompt.size()) + 4), EMBER_OK);
  EXPECT_EQ(ember_llm_rewind(llm, 1000), EMBER_INVALID_ARGUMENT);
  config.max_new_tokens = 4;
  ember_llm* fork = nullptr;
  ASSERT_EQ(ember_llm_fork(llm, &fork), EMBER_OK) << ember_last_error_message();
  ASSERT_EQ(ember_llm_continue(llm, nullptr, nullptr, 0, &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  const std::vector<int32_t> want(fixture.greedy.begin() + 4, fixture.greedy.begin() + 8);
  EXPECT_EQ(generated(llm), want);
  ASSERT_EQ(ember_llm_continue(fork, nullptr, nullptr, 0, &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  EXPECT_EQ(generated(fork), want);
  ember_llm_destroy(fork);

  ember_llm* other = nullptr;
  ASSERT_EQ(ember_llm_new_session(llm, &other), EMBER_OK) << ember_last_error_message();
  EXPECT_EQ(ember_llm_session_tokens(other, nullptr, 0), 0u);
  const int32_t other_prompt[5] = {5, 4, 3, 2, 1};
  config.max_new_tokens = static_cast<int32_t>(fixture.greedy.size());
  ASSERT_EQ(ember_llm_generate(other, nullptr, other_prompt, 5, &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  const std::vector<int32_t> other_alone = generated(other);
  ASSERT_EQ(ember_llm_reset(other), EMBER_OK);
  ASSERT_EQ(ember_llm_reset(llm), EMBER_OK);
  ember_status status_a = EMBER_OK, status_b = EMBER_OK;
  std::thread ta([&] {
    status_a = ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(),
                                  &config, nullptr, nullptr, nullptr);
  });
  std::thread tb([&] {
    status_b = ember_llm_generate(other, nullptr, other_prompt, 5, &config, nullptr, nullptr,
                                  nullptr);
  });
  ta.join();
  tb.join();
  ASSERT_EQ(status_a, EMBER_OK);
  ASSERT_EQ(status_b, EMBER_OK);
  EXPECT_EQ(generated(llm), fixture.greedy);
  EXPECT_EQ(generated(other), other_alone);
  ember_llm_destroy(llm);  // the first handle first: the second keeps the program
  ASSERT_EQ(ember_llm_generate(other, nullptr, other_prompt, 5, &config, nullptr, nullptr, nullptr),
            EMBER_OK);
  EXPECT_EQ(generated(other), other_alone);
  ember_llm_destroy(other);
}

TEST(LlmCapiTest, EstimateMemoryBeforeLoading) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm_memory memory;
  ASSERT_EQ(ember_llm_estimate_memory(fixture.pte.c_str(), &memory), EMBER_OK)
      << ember_last_error_message();
  std::ifstream file(fixture.pte, std::ios::binary | std::ios::ate);
  EXPECT_EQ(memory.file_bytes, static_cast<uint64_t>(file.tellg()));
  EXPECT_GT(memory.kv_cache_bytes, 0u);
  EXPECT_GE(memory.planned_bytes, memory.kv_cache_bytes);
  EXPECT_EQ(memory.total_bytes, memory.file_bytes + memory.planned_bytes + memory.temp_bytes);
  ember_llm* llm = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &llm), EMBER_OK);
  EXPECT_EQ(memory.context_length, stats_of(llm).context_length);
  EXPECT_EQ(memory.vocab_size, 128);
  ember_llm_destroy(llm);
  std::printf("estimate: file %llu, planned %llu (KV cache %llu), temp %llu bytes\n",
              static_cast<unsigned long long>(memory.file_bytes),
              static_cast<unsigned long long>(memory.planned_bytes),
              static_cast<unsigned long long>(memory.kv_cache_bytes),
              static_cast<unsigned long long>(memory.temp_bytes));
  EXPECT_EQ(ember_llm_estimate_memory("/nonexistent.pte", &memory), EMBER_NOT_FOUND);
  EXPECT_EQ(ember_llm_estimate_memory(nullptr, &memory), EMBER_INVALID_ARGUMENT);
}

// Issue #33's misuse: the text callback calling back into its own handle is InvalidState
// (deterministically: the callback runs inside generate), a second destroy does nothing and a
// call on the destroyed handle is InvalidArgument, never a use after free (ASan checks it).
struct Reenter {
  ember_llm* llm = nullptr;
  ember_status reset_inside = EMBER_OK;
};

int32_t reset_from_callback(const char*, size_t, void* user_data) {
  auto* r = static_cast<Reenter*>(user_data);
  r->reset_inside = ember_llm_reset(r->llm);
  return 0;  // stop after the first piece
}

TEST(LlmCapiTest, ReentryAndDestroyedHandlesAreNamedErrors) {
  const Lowered fixture = lower_fixture();
  ASSERT_FALSE(fixture.pte.empty());
  ember_llm* llm = nullptr;
  ASSERT_EQ(ember_llm_load(fixture.pte.c_str(), nullptr, &llm), EMBER_OK);
  ember_llm_config config;
  ember_llm_config_init(&config);
  config.max_new_tokens = 4;
  Reenter r;
  r.llm = llm;
  EXPECT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config,
                               reset_from_callback, &r, nullptr),
            EMBER_OK);
  EXPECT_EQ(r.reset_inside, EMBER_INVALID_STATE);
  EXPECT_EQ(ember_llm_reset(llm), EMBER_OK);  // released after the call
  ember_llm_destroy(llm);
  ember_llm_destroy(llm);
  EXPECT_NE(std::string(ember_last_error_message()).find("is not a live ember_llm handle"), std::string::npos)
      << ember_last_error_message();
  EXPECT_EQ(ember_llm_generate(llm, nullptr, fixture.prompt.data(), fixture.prompt.size(), &config, nullptr,
                               nullptr, nullptr),
            EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_reset(llm), EMBER_INVALID_ARGUMENT);
  int32_t tokens[4];
  EXPECT_EQ(ember_llm_generated_tokens(llm, tokens, 4), 0u);
}

TEST(LlmCapiTest, BadCallsAreNamedErrors) {
  ember_llm* llm = nullptr;
  EXPECT_EQ(ember_llm_load(nullptr, nullptr, &llm), EMBER_INVALID_ARGUMENT);
  EXPECT_NE(ember_llm_load("/nonexistent/model.pte", nullptr, &llm), EMBER_OK);
  EXPECT_EQ(llm, nullptr);
  EXPECT_NE(std::strlen(ember_last_error_message()), 0u);
  ember_llm_config config;
  ember_llm_config_init(&config);
  EXPECT_EQ(ember_llm_generate(nullptr, "x", nullptr, 0, &config, nullptr, nullptr, nullptr),
            EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_reset(nullptr), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_rewind(nullptr, 0), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_new_session(nullptr, &llm), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_fork(nullptr, &llm), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_save_session(nullptr, "x"), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_load_session(nullptr, "x"), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_get_stats(nullptr, nullptr), EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_continue(nullptr, nullptr, nullptr, 0, &config, nullptr, nullptr, nullptr),
            EMBER_INVALID_ARGUMENT);
  EXPECT_EQ(ember_llm_session_tokens(nullptr, nullptr, 0), 0u);
  ember_llm_destroy(nullptr);
}

}  // namespace
}  // namespace ember::testing
