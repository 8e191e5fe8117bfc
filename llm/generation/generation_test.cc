// The loop over a scripted model: after token t the logits favour (t + 1) % 8 by 4 nats, so
// greedy decoding from [0] gives 1 2 3 ... and every stop condition can be placed by hand.
#include "llm/generation/generation.h"

#include <gtest/gtest.h>

#include "llm/generation/fake_tokenizer.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

using testing::FakeTokenizer;

class CountingModel final : public LogitsModel {
 public:
  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens, int32_t start) override {
    EXPECT_EQ(start, position);  // the loop feeds positions in order
    position += static_cast<int32_t>(tokens.size());
    ++calls;
    std::vector<float> logits(8, 0.0f);
    logits[(tokens.back() + 1) % 8] = 4.0f;
    return logits;
  }
  int32_t position = 0;
  int calls = 0;
};

const FakeTokenizer kTok({"<s>", "a", "b", " <", "|x", "|>", "c", "\n"});

GenerationConfig config(int max_new) {
  GenerationConfig c;
  c.context = {64, max_new, ContextOverflow::Fail, 0};
  return c;
}

TEST(GenerationTest, GreedyRunsToMaxNewTokens) {
  CountingModel m;
  auto r = generate(m, kTok, {0}, config(3), nullptr);
  ASSERT_TRUE(r.ok()) << runtime::last_error_message();
  EXPECT_EQ(r->tokens, (std::vector<int32_t>{1, 2, 3}));
  EXPECT_EQ(r->text, "ab <");
  EXPECT_EQ(r->reason, StopReason::MaxNewTokens);
  EXPECT_EQ(m.calls, 3);  // prefill + 2 decode steps (none after the last token)
}

TEST(GenerationTest, StopTokenEndsWithoutIt) {
  CountingModel m;
  GenerationConfig c = config(10);
  c.stop_tokens = {6};
  auto r = generate(m, kTok, {0}, c, nullptr);
  EXPECT_EQ(r->tokens, (std::vector<int32_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(r->reason, StopReason::StopToken);
}

TEST(GenerationTest, StopStringAcrossThreeTokensIsNotStreamed) {
  CountingModel m;
  GenerationConfig c = config(10);
  c.stop_strings = {"<|x|>"};
  std::string streamed;
  auto r = generate(m, kTok, {0}, c, [&](std::string_view t) {
    streamed += t;
    return true;
  });
  EXPECT_EQ(r->reason, StopReason::StopString);
  EXPECT_EQ(streamed, "ab ");
  EXPECT_EQ(r->text, "ab ");
}

TEST(GenerationTest, ContextEndStopsGeneration) {
  CountingModel m;
  GenerationConfig c = config(10);
  c.context.context_length = 4;
  auto r = generate(m, kTok, {0, 1}, c, nullptr);
  EXPECT_EQ(r->tokens, (std::vector<int32_t>{2, 3}));
  EXPECT_EQ(r->reason, StopReason::ContextFull);
}

TEST(GenerationTest, CallbackCancels) {
  CountingModel m;
  int pieces = 0;
  auto r = generate(m, kTok, {0}, config(10), [&](std::string_view) { return ++pieces < 2; });
  EXPECT_EQ(r->reason, StopReason::Cancelled);
  EXPECT_EQ(r->tokens.size(), 2u);
}

TEST(GenerationTest, SeededSamplingRepeats) {
  auto run = [](uint64_t seed) {
    CountingModel m;
    GenerationConfig c = config(30);
    c.sampling.temperature = 3.0f;  // flat enough that draws vary
    c.sampling.seed = seed;
    return generate(m, kTok, {0}, c, nullptr)->tokens;
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_NE(run(5), run(6));
}

TEST(GenerationTest, PromptThatDoesNotFitIsContextOverflow) {
  CountingModel m;
  GenerationConfig c = config(4);
  c.context.context_length = 2;
  auto r = generate(m, kTok, {0, 1}, c, nullptr);
  EXPECT_EQ(r.error(), runtime::Error::OutOfResources);
  EXPECT_EQ(m.calls, 0);
}

}  // namespace
}  // namespace ember::llm
