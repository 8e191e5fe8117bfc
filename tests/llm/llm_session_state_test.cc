// KV-cache control on a real lowered decoder (issue #32 part 5): tests/fixtures/llm's tiny
// transformers Llama, lowered with the portable recipe, run through llm::PteLogitsModel,
// llm::Session and llm::generate():
//   - save/restore: a sampled generation (temperature, top-k, repetition penalty, seed) stopped
//     after 8 tokens, saved to a file and restored into a separately loaded program continues
//     with the uninterrupted 16-token run's tokens, token for token; a damaged file, a file of
//     another model and a missing file are named errors that leave the session as it was;
//   - prefix reuse: a second turn re-sent whole runs only its new tokens (the stats show the
//     reused prefix) and gives the tokens a fresh context gives; a system prompt prefilled once
//     is forked into another context without running it again;
//   - two contexts on one loaded program decode different prompts on two threads at once, each
//     giving its own uninterrupted tokens (PyTorch's for the fixture prompt);
//   - every byte of a session file's header, tokens, logits and state table changed (and the
//     checksum made to match), and truncations: a named error or a valid restore, never a crash,
//     and a refused file leaves the session as it was.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "aot/recipe/export_session.h"
#include "apps/executor_runner/registration.h"
#include "llm/generation/fake_tokenizer.h"
#include "llm/generation/generation.h"
#include "llm/runner/content_hash.h"
#include "llm/runner/pte_logits_model.h"
#include "llm/runner/session.h"
#include "llm/runner/session_file.h"
#include "runtime/kernel/kernel_registry.h"
#include "tests/e2e/fixture_corpus.h"
#include "tests/llm/llm_test_support.h"

namespace ember::testing {
namespace {

const char* kId = "llm_llama.core_aten.torch2_14";

std::string tmp_path(const std::string& name) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  return std::string(tmp ? tmp : "/tmp") + "/" + name;
}

struct Lowered {
  std::string pte;
  std::vector<int32_t> prompt;
  std::vector<int32_t> greedy;  // PyTorch's
};

// The fixture lowered once per test binary.
const Lowered& lowered() {
  static const Lowered out = [] {
    Lowered l;
    for (const Fixture& f : list_llm_fixtures()) {
      if (f.id != kId) continue;
      aot::RecipeRegistry recipes;
      EXPECT_EQ(aot::register_builtin_recipes(&recipes), runtime::Error::Ok);
      auto session = aot::ExportSession::create(recipes, "portable", f.pt2, {}, {});
      aot::Error st = session.ok() ? session->run() : session.error();
      if (st != runtime::Error::Ok) {
        ADD_FAILURE() << aot::format_error(st);
        return l;
      }
      l.pte = tmp_path("state_llama.pte");
      std::ofstream file(l.pte, std::ios::binary);
      file.write(reinterpret_cast<const char*>(session->pte()->data()), session->pte()->size());
      aot::HostTensor ids;
      EXPECT_TRUE(read_fixture_tensor(f.cases[0].inputs[0], &ids));
      for (int64_t i = 0; i < ids.numel(); ++i) {
        int64_t v;
        std::memcpy(&v, ids.bytes.data() + 8 * i, 8);
        l.prompt.push_back(static_cast<int32_t>(v));
      }
      l.greedy.assign(f.greedy_tokens.begin(), f.greedy_tokens.end());
    }
    return l;
  }();
  return out;
}

std::unique_ptr<llm::PteLogitsModel> load_model(const std::string& path) {
  auto model = llm::PteLogitsModel::load(path, registered());
  EXPECT_TRUE(model.ok()) << runtime::last_error_message();
  return model.ok() ? std::move(model.get()) : nullptr;
}

llm::Session session_on(llm::PteLogitsModel& model) {
  return llm::Session(model, model.max_seq_len(), model.context_length());
}

const llm::testing::FakeTokenizer& tokenizer(int32_t vocab) {
  static const llm::testing::FakeTokenizer tok = [vocab] {
    std::vector<std::string> pieces;
    for (int32_t i = 0; i < vocab; ++i) pieces.push_back("<" + std::to_string(i) + ">");
    return llm::testing::FakeTokenizer(pieces);
  }();
  return tok;
}

llm::GenerationConfig sampled(int32_t context, int32_t new_tokens, llm::Rng* rng) {
  llm::GenerationConfig config;
  config.sampling.temperature = 0.9f;
  config.sampling.top_k = 40;
  config.sampling.repetition_penalty = 1.1f;
  config.sampling.seed = 5;
  config.context.context_length = context;
  config.context.max_new_tokens = new_tokens;
  config.rng = rng;
  config.evaluate_last_token = true;
  return config;
}

llm::GenerationResult run(llm::Session& session, const std::vector<int32_t>& prompt,
                          const llm::GenerationConfig& config) {
  auto result = llm::generate(session, tokenizer(0), prompt, config, nullptr);
  EXPECT_TRUE(result.ok()) << runtime::last_error_message();
  return result.ok() ? result.get() : llm::GenerationResult();
}

TEST(LlmSessionStateTest, SavedSessionContinuesInAnotherLoadLikeAnUninterruptedRun) {
  const Lowered& l = lowered();
  ASSERT_FALSE(l.pte.empty());
  auto a = load_model(l.pte);
  ASSERT_NE(a, nullptr);
  (void)tokenizer(a->vocab_size());
  const int32_t context = a->context_length();

  llm::Session uninterrupted = session_on(*a);
  llm::Rng rng_a(5);
  const llm::GenerationResult whole = run(uninterrupted, l.prompt, sampled(context, 16, &rng_a));
  ASSERT_EQ(whole.tokens.size(), 16u);

  auto b = load_model(l.pte);
  llm::Session first = session_on(*b);
  llm::Rng rng_b(5);
  const llm::GenerationResult half = run(first, l.prompt, sampled(context, 8, &rng_b));
  ASSERT_EQ(half.tokens.size(), 8u);
  EXPECT_EQ(first.position(), static_cast<int32_t>(l.prompt.size() + 8));
  const std::string file = tmp_path("llama.session");
  ASSERT_EQ(llm::save_session(file, *b, first, &rng_b), runtime::Error::Ok)
      << runtime::last_error_message();
  b.reset();
  struct stat st;
  ASSERT_EQ(::stat(file.c_str(), &st), 0);
  const mode_t mask = ::umask(0);
  ::umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666u & ~mask);  // like fopen's files, not mkstemp's 0600

  auto c = load_model(l.pte);
  llm::Session restored = session_on(*c);
  llm::Rng rng_c(999);
  bool has_rng = false;
  ASSERT_EQ(llm::load_session(file, *c, restored, &rng_c, &has_rng), runtime::Error::Ok)
      << runtime::last_error_message();
  EXPECT_TRUE(has_rng);
  // Ember marks the caches as mutable buffers: only they are saved, not the activations.
  auto ranges = c->state();
  ASSERT_TRUE(ranges.ok());
  size_t state_bytes = 0;
  for (const auto& r : ranges.get()) {
    EXPECT_EQ(r.kind, runtime::Module::StateRange::Kind::MutableBuffer);
    state_bytes += r.bytes.size();
  }
  std::printf("%zu mutable buffers, %zu bytes\n", ranges.get().size(), state_bytes);
  EXPECT_EQ(restored.position(), static_cast<int32_t>(l.prompt.size() + 8));
  // Continue: the whole conversation is the prompt; all of it is in the restored cache.
  const llm::GenerationResult rest = run(restored, restored.tokens(), sampled(context, 8, &rng_c));
  EXPECT_EQ(rest.prefill_evaluated, 0);
  EXPECT_EQ(rest.prefill_reused, static_cast<int32_t>(l.prompt.size() + 8));
  std::vector<int32_t> joined = half.tokens;
  joined.insert(joined.end(), rest.tokens.begin(), rest.tokens.end());
  EXPECT_EQ(joined, whole.tokens);
  std::printf("sampled 16 tokens = 8 + 8 across save/restore; file %ld bytes\n",
              static_cast<long>(std::ifstream(file, std::ios::binary | std::ios::ate).tellg()));

  // Bad files leave the session as it was.
  const std::vector<int32_t> before = restored.tokens();
  std::ifstream in(file, std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<char> damaged = bytes;
  damaged[damaged.size() / 2] ^= 0x40;
  const std::string bad = tmp_path("damaged.session");
  std::ofstream(bad, std::ios::binary).write(damaged.data(), damaged.size());
  EXPECT_EQ(llm::load_session(bad, *c, restored, &rng_c, &has_rng),
            runtime::Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("checksum"), std::string::npos)
      << runtime::last_error_message();
  std::ofstream(bad, std::ios::binary).write(bytes.data(), bytes.size() - 100);
  EXPECT_EQ(llm::load_session(bad, *c, restored, &rng_c, &has_rng),
            runtime::Error::InvalidArgument);
  EXPECT_EQ(llm::load_session(tmp_path("missing.session"), *c, restored, &rng_c, &has_rng),
            runtime::Error::NotFound);
  // Another model file (the same program with one byte appended: other bytes, other hash).
  const std::string other = tmp_path("other.pte");
  {
    std::ifstream src(l.pte, std::ios::binary);
    std::ofstream dst(other, std::ios::binary);
    dst << src.rdbuf() << '\0';
  }
  auto d = load_model(other);
  ASSERT_NE(d, nullptr);
  llm::Session on_other = session_on(*d);
  EXPECT_EQ(llm::load_session(file, *d, on_other, &rng_c, &has_rng),
            runtime::Error::InvalidArgument);
  EXPECT_NE(std::string(runtime::last_error_message()).find("another model"), std::string::npos)
      << runtime::last_error_message();
  EXPECT_EQ(restored.tokens(), before);
  EXPECT_EQ(on_other.position(), 0);
}

TEST(LlmSessionStateTest, PrefixReuseRunsOnlyNewTokensAndForksASystemPrompt) {
  const Lowered& l = lowered();
  ASSERT_FALSE(l.pte.empty());
  auto model = load_model(l.pte);
  ASSERT_NE(model, nullptr);
  (void)tokenizer(model->vocab_size());
  llm::GenerationConfig greedy;
  greedy.context.context_length = model->context_length();
  greedy.context.max_new_tokens = 6;
  greedy.evaluate_last_token = true;

  llm::Session session = session_on(*model);
  const llm::GenerationResult turn1 = run(session, l.prompt, greedy);
  EXPECT_EQ(turn1.prefill_evaluated, static_cast<int32_t>(l.prompt.size()));
  EXPECT_EQ(turn1.prefill_reused, 0);
  EXPECT_EQ(std::vector<int32_t>(l.greedy.begin(), l.greedy.begin() + 6), turn1.tokens);
  // Turn 2: the conversation so far and three new tokens.
  std::vector<int32_t> prompt2 = l.prompt;
  prompt2.insert(prompt2.end(), turn1.tokens.begin(), turn1.tokens.end());
  prompt2.insert(prompt2.end(), {7, 11, 13});
  const llm::GenerationResult turn2 = run(session, prompt2, greedy);
  EXPECT_EQ(turn2.prefill_reused, static_cast<int32_t>(prompt2.size() - 3));
  EXPECT_EQ(turn2.prefill_evaluated, 3);
  auto fresh_ctx = model->new_context();
  ASSERT_TRUE(fresh_ctx.ok()) << runtime::last_error_message();
  llm::Session fresh = session_on(*fresh_ctx.get());
  const llm::GenerationResult reference = run(fresh, prompt2, greedy);
  EXPECT_EQ(reference.prefill_evaluated, static_cast<int32_t>(prompt2.size()));
  EXPECT_EQ(turn2.tokens, reference.tokens);
  std::printf("turn 2: %d prompt tokens reused, %d run; tokens = a fresh context's\n",
              turn2.prefill_reused, turn2.prefill_evaluated);

  // A system prompt prefilled once, forked into a second context.
  auto fork_ctx = model->new_context();
  ASSERT_TRUE(fork_ctx.ok());
  llm::Session system = session_on(*fresh_ctx.get());
  ASSERT_TRUE(system.forward(l.prompt, 0).ok());
  ASSERT_EQ(fork_ctx.get()->copy_state_from(*fresh_ctx.get()), runtime::Error::Ok);
  llm::Session forked = session_on(*fork_ctx.get());
  ASSERT_EQ(forked.restore(system.tokens(), system.last_logits()), runtime::Error::Ok);
  std::vector<int32_t> user = l.prompt;
  user.insert(user.end(), {3, 5});
  const llm::GenerationResult from_fork = run(forked, user, greedy);
  EXPECT_EQ(from_fork.prefill_reused, static_cast<int32_t>(l.prompt.size()));
  EXPECT_EQ(from_fork.prefill_evaluated, 2);
  llm::Session plain = session_on(*model);
  const llm::GenerationResult direct = run(plain, user, greedy);
  EXPECT_EQ(from_fork.tokens, direct.tokens);
}

TEST(LlmSessionStateTest, TwoContextsDecodeOnTwoThreadsAtOnce) {
  const Lowered& l = lowered();
  ASSERT_FALSE(l.pte.empty());
  auto model = load_model(l.pte);
  ASSERT_NE(model, nullptr);
  (void)tokenizer(model->vocab_size());
  auto second = model->new_context();
  ASSERT_TRUE(second.ok()) << runtime::last_error_message();
  std::vector<int32_t> other_prompt = {5, 4, 3, 2, 1};
  llm::GenerationConfig greedy;
  greedy.context.context_length = model->context_length();
  greedy.context.max_new_tokens = static_cast<int32_t>(l.greedy.size());
  // The other prompt's tokens, alone.
  llm::Session alone = session_on(*model);
  const std::vector<int32_t> other_alone = run(alone, other_prompt, greedy).tokens;

  std::vector<int32_t> got_a, got_b;
  std::thread ta([&] {
    llm::Session s = session_on(*model);
    got_a = run(s, l.prompt, greedy).tokens;
  });
  std::thread tb([&] {
    llm::Session s = session_on(*second.get());
    got_b = run(s, other_prompt, greedy).tokens;
  });
  ta.join();
  tb.join();
  EXPECT_EQ(got_a, l.greedy);
  EXPECT_EQ(got_b, other_alone);
  EXPECT_NE(got_a, got_b);
}

std::vector<char> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<char>((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// Writes `body` with a matching checksum, as save_session would.
void write_with_checksum(const std::string& path, const std::vector<char>& body) {
  llm::ContentHash hash;
  hash.update(body.data(), body.size());
  const uint64_t sum = hash.finish();
  std::ofstream out(path, std::ios::binary);
  out.write(body.data(), body.size());
  out.write(reinterpret_cast<const char*>(&sum), sizeof(sum));
}

TEST(LlmSessionStateTest, ChangedSessionFilesAreErrorsOrValidNeverCrashes) {
  const Lowered& l = lowered();
  ASSERT_FALSE(l.pte.empty());
  auto model = load_model(l.pte);
  ASSERT_NE(model, nullptr);
  llm::Session session = session_on(*model);
  ASSERT_TRUE(session.append(l.prompt).ok());
  const std::string good = tmp_path("good.session");
  llm::Rng rng(1);
  ASSERT_EQ(llm::save_session(good, *model, session, &rng), runtime::Error::Ok);
  std::vector<char> body = read_bytes(good);
  body.resize(body.size() - 8);  // without its checksum
  // magic 8 + header 80 + tokens + logits + 16 per state range: everything but the state bytes.
  auto ranges = model->state();
  ASSERT_TRUE(ranges.ok());
  const size_t meta = 8 + 80 + 4 * l.prompt.size() + 4 * model->vocab_size() + 16 * ranges->size();
  ASSERT_LT(meta, body.size());
  const std::string bad = tmp_path("mutated.session");
  int refused = 0, restored = 0;
  for (size_t i = 0; i < meta; ++i) {
    for (const uint8_t x : {0x01, 0x80, 0xff}) {
      std::vector<char> mutated = body;
      mutated[i] = static_cast<char>(mutated[i] ^ x);
      write_with_checksum(bad, mutated);
      llm::Session target = session_on(*model);
      ASSERT_EQ(target.restore({7, 8}, {}), runtime::Error::Ok);
      bool has_rng = false;
      const runtime::Error err = llm::load_session(bad, *model, target, &rng, &has_rng);
      if (err == runtime::Error::Ok) {
        ++restored;  // a token id still in the vocabulary, a logit, a generator word
      } else {
        ++refused;
        EXPECT_EQ(target.tokens(), (std::vector<int32_t>{7, 8})) << "byte " << i;
        EXPECT_NE(std::string(runtime::last_error_message()).find("session file"),
                  std::string::npos)
            << runtime::last_error_message();
      }
    }
  }
  for (size_t cut = 0; cut < body.size(); cut += 97) {
    write_with_checksum(bad, std::vector<char>(body.begin(), body.begin() + cut));
    bool has_rng = false;
    EXPECT_NE(llm::load_session(bad, *model, session, &rng, &has_rng), runtime::Error::Ok)
        << "cut at " << cut;
    EXPECT_EQ(session.tokens(), l.prompt) << "cut at " << cut;  // refused before any change
  }
  std::printf("%d changed files refused, %d still valid\n", refused, restored);
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace ember::testing
