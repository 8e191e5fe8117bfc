// Session over a fake model that records its calls: positions, chunking, rewinding and errors,
// with the expected calls written out by hand.
#include "llm/runner/session.h"

#include <gtest/gtest.h>

#include <utility>

namespace ember::llm {
namespace {

struct Call {
  std::vector<int32_t> tokens;
  int32_t start_pos;
  bool operator==(const Call& o) const { return tokens == o.tokens && start_pos == o.start_pos; }
};

// Logits: one value per call, the last token id (so a test can see which token ran last).
class RecordingModel final : public LogitsModel {
 public:
  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                     int32_t start_pos) override {
    calls.push_back({tokens, start_pos});
    if (fail_at_call == static_cast<int>(calls.size())) return Error::Internal;
    return std::vector<float>{static_cast<float>(tokens.back())};
  }
  std::vector<Call> calls;
  int fail_at_call = 0;
};

TEST(SessionTest, PrefillIsChunkedAndDecodeFollowsThePosition) {
  RecordingModel model;
  Session session(model, /*max_chunk=*/2, /*context_length=*/8);
  auto logits = session.append({10, 11, 12, 13, 14});
  ASSERT_TRUE(logits.ok());
  EXPECT_EQ(logits.get(), std::vector<float>{14});
  ASSERT_TRUE(session.append({15}).ok());
  const std::vector<Call> expected = {{{10, 11}, 0}, {{12, 13}, 2}, {{14}, 4}, {{15}, 5}};
  EXPECT_EQ(model.calls, expected);
  EXPECT_EQ(session.position(), 6);
  EXPECT_EQ(session.tokens(), (std::vector<int32_t>{10, 11, 12, 13, 14, 15}));
  EXPECT_EQ(session.model_calls(), 4);
}

TEST(SessionTest, RunningAtAnEarlierPositionRewinds) {
  RecordingModel model;
  Session session(model, 8, 8);
  ASSERT_TRUE(session.append({1, 2, 3, 4}).ok());
  ASSERT_TRUE(session.forward({9}, 2).ok());
  EXPECT_EQ(model.calls.back(), (Call{{9}, 2}));
  EXPECT_EQ(session.tokens(), (std::vector<int32_t>{1, 2, 9}));
}

TEST(SessionTest, BadRunsAreNamedErrors) {
  RecordingModel model;
  Session session(model, 8, 4);
  EXPECT_EQ(session.append({}).error(), Error::InvalidArgument);
  EXPECT_EQ(session.forward({1}, 1).error(), Error::InvalidArgument);  // past position 0
  EXPECT_EQ(session.append({1, 2, 3, 4, 5}).error(), Error::OutOfResources);
  EXPECT_TRUE(model.calls.empty());
  EXPECT_EQ(session.position(), 0);
}

TEST(SessionTest, AModelErrorKeepsTheChunksThatRan) {
  RecordingModel model;
  model.fail_at_call = 2;
  Session session(model, 2, 8);
  EXPECT_EQ(session.append({1, 2, 3, 4}).error(), Error::Internal);
  EXPECT_EQ(session.tokens(), (std::vector<int32_t>{1, 2}));
}

TEST(SessionTest, PrefixReuseRunsOnlyTheNewTokens) {
  RecordingModel model;
  Session session(model, 8, 16);
  ASSERT_TRUE(session.append({1, 2, 3, 4}).ok());
  // The conversation re-sent whole with two new tokens: only those run.
  auto logits = session.forward({1, 2, 3, 4, 5, 6}, 0);
  ASSERT_TRUE(logits.ok());
  EXPECT_EQ(logits.get(), std::vector<float>{6});
  EXPECT_EQ(model.calls.back(), (Call{{5, 6}, 4}));
  EXPECT_EQ(session.reused_tokens(), 4);
  // A prompt that leaves the history after two tokens: the rest is rewritten.
  ASSERT_TRUE(session.forward({1, 2, 7}, 0).ok());
  EXPECT_EQ(model.calls.back(), (Call{{7}, 2}));
  EXPECT_EQ(session.tokens(), (std::vector<int32_t>{1, 2, 7}));
  // All of it cached with its logits: no model call at all.
  const size_t calls = model.calls.size();
  auto same = session.forward({1, 2, 7}, 0);
  ASSERT_TRUE(same.ok());
  EXPECT_EQ(same.get(), std::vector<float>{7});
  EXPECT_EQ(model.calls.size(), calls);
  EXPECT_EQ(session.reused_tokens(), 3);
  // Cached without logits (after a rewind): the last token runs again.
  ASSERT_EQ(session.truncate(2), Error::Ok);
  EXPECT_TRUE(session.last_logits().empty());
  ASSERT_TRUE(session.forward({1, 2}, 0).ok());
  EXPECT_EQ(model.calls.back(), (Call{{2}, 1}));
  EXPECT_EQ(session.reused_tokens(), 1);
  EXPECT_EQ(session.stats().evaluated_tokens, 4 + 2 + 1 + 1);
  EXPECT_EQ(session.stats().reused_tokens, 4 + 2 + 3 + 1);
  EXPECT_EQ(session.stats().model_calls, 4);
  EXPECT_EQ(session.truncate(3), Error::InvalidArgument);
}

TEST(SessionTest, RestoreSetsHistoryAndLogits) {
  RecordingModel model;
  Session session(model, 8, 4);
  ASSERT_EQ(session.restore({5, 6}, {0.5f}), Error::Ok);
  auto logits = session.forward({5, 6}, 0);
  ASSERT_TRUE(logits.ok());
  EXPECT_EQ(logits.get(), std::vector<float>{0.5f});
  EXPECT_TRUE(model.calls.empty());
  EXPECT_EQ(session.restore({1, 2, 3, 4, 5}, {}), Error::InvalidArgument);
  EXPECT_EQ(session.position(), 2);
}

}  // namespace
}  // namespace ember::llm
