#include "llm/generation/text_streamer.h"

#include <gtest/gtest.h>

#include "llm/generation/fake_tokenizer.h"

namespace ember::llm {
namespace {

using testing::FakeTokenizer;

std::string push(TextStreamer& s, int32_t id, bool* stopped = nullptr) {
  auto step = s.push(id);
  EXPECT_TRUE(step.ok());
  if (stopped != nullptr) *stopped = step->stopped;
  return step->text;
}

TEST(TextStreamerTest, StopStringAcrossTokensIsNeverPrinted) {
  FakeTokenizer tok({"Hel", "lo <", "|end", "|> more"});
  TextStreamer s(tok, {"<|end|>"});
  bool stopped = false;
  EXPECT_EQ(push(s, 0), "Hel");
  EXPECT_EQ(push(s, 1), "lo ");  // "<" may start the stop string
  EXPECT_EQ(push(s, 2), "");     // "<|end" still may
  EXPECT_EQ(push(s, 3, &stopped), "");
  EXPECT_TRUE(stopped);
  EXPECT_EQ(s.emitted(), "Hello ");
}

TEST(TextStreamerTest, FalseAlarmIsReleased) {
  FakeTokenizer tok({"a <", "b> c"});
  TextStreamer s(tok, {"<|end|>"});
  EXPECT_EQ(push(s, 0), "a ");
  EXPECT_EQ(push(s, 1), "<b> c");
  EXPECT_FALSE(s.stopped());
}

TEST(TextStreamerTest, StopStringInsideOneToken) {
  FakeTokenizer tok({"x", "y\nUser: z"});
  TextStreamer s(tok, {"\nUser:"});
  bool stopped = false;
  EXPECT_EQ(push(s, 0), "x");
  EXPECT_EQ(push(s, 1, &stopped), "y");
  EXPECT_TRUE(stopped);
}

TEST(TextStreamerTest, CharacterSplitAcrossTokensWaitsUntilComplete) {
  // U+1F600 is F0 9F 98 80; the first token has half of it.
  FakeTokenizer tok({"ok ", "\xF0\x9F", "\x98\x80", "!"});
  TextStreamer s(tok, {});
  EXPECT_EQ(push(s, 0), "ok ");
  EXPECT_EQ(push(s, 1), "");
  EXPECT_EQ(push(s, 2), "\xF0\x9F\x98\x80");
  EXPECT_EQ(push(s, 3), "!");
}

TEST(TextStreamerTest, FinishFlushesWhatWasHeldBack) {
  FakeTokenizer tok({"a<|e", "\xF0\x9F"});
  TextStreamer s(tok, {"<|end|>"});
  EXPECT_EQ(push(s, 0), "a");
  EXPECT_EQ(push(s, 1), "");
  EXPECT_EQ(s.finish(), "<|e\xEF\xBF\xBD");
}

TEST(TextStreamerTest, BadIdIsAnError) {
  FakeTokenizer tok({"a"});
  TextStreamer s(tok, {});
  EXPECT_FALSE(s.push(5).ok());
  EXPECT_EQ(push(s, 0), "a");
}

TEST(TextStreamerTest, OverlapIsTheLongestSuffixThatStartsAStop) {
  EXPECT_EQ(stop_prefix_overlap("abc<|e", {"<|end|>"}), 3u);
  EXPECT_EQ(stop_prefix_overlap("abc", {"<|end|>"}), 0u);
  EXPECT_EQ(stop_prefix_overlap("xUs", {"\nUser:", "Us!"}), 2u);
}

}  // namespace
}  // namespace ember::llm
