// Hand-derived cases from the Unicode standard's U+FFFD substitution practice (Table 3-8): one
// U+FFFD per maximal subpart of an ill-formed sequence.
#include "llm/tokenizer/utf8.h"

#include <gtest/gtest.h>

namespace ember::llm {
namespace {

const std::string kFffd = "\xEF\xBF\xBD";

TEST(Utf8Test, ValidTextIsUnchanged) {
  const std::string text = "a\xC3\xA9\xE4\xB8\xAD\xF0\x9F\x98\x80";  // a é 中 😀
  EXPECT_TRUE(is_valid_utf8(text));
  EXPECT_EQ(sanitize_utf8(text), text);
}

TEST(Utf8Test, MaximalSubpartsAsInTable3_8) {
  // Table 3-8's example: 61 F1 80 80 E1 80 C2 62 80 63 80 BF 64 -> a FFFD FFFD FFFD b FFFD c
  // FFFD FFFD d.
  const std::string in = "\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64";
  EXPECT_EQ(sanitize_utf8(in),
            "a" + kFffd + kFffd + kFffd + "b" + kFffd + "c" + kFffd + kFffd + "d");
}

TEST(Utf8Test, SurrogatesAndOverlongsAreOneFffdPerByte) {
  // ED A0 80 (a surrogate): ED cannot be followed by A0, so three subparts.
  EXPECT_EQ(sanitize_utf8("\xED\xA0\x80"), kFffd + kFffd + kFffd);
  // C0 AF (overlong '/'): C0 never starts a sequence.
  EXPECT_EQ(sanitize_utf8("\xC0\xAF"), kFffd + kFffd);
  // F4 90 80 80 is above U+10FFFF.
  EXPECT_EQ(sanitize_utf8("\xF4\x90\x80\x80"), kFffd + kFffd + kFffd + kFffd);
}

TEST(Utf8Test, TruncatedSequenceAtTheEndIsOneFffd) {
  EXPECT_EQ(sanitize_utf8("x\xF0\x9F\x98"), "x" + kFffd);
}

TEST(Utf8Test, CompletePrefixHoldsBackAnUnfinishedCharacter) {
  EXPECT_EQ(complete_utf8_prefix("ab\xF0\x9F"), 2u);
  EXPECT_EQ(complete_utf8_prefix("ab\xF0\x9F\x98\x80"), 6u);
  EXPECT_EQ(complete_utf8_prefix("ab\xC3"), 2u);
  EXPECT_EQ(complete_utf8_prefix("ab\xFF"), 3u);  // invalid: nothing to wait for
  EXPECT_EQ(complete_utf8_prefix(""), 0u);
}

TEST(Utf8Test, AppendAndDecodeRoundTrip) {
  std::string s;
  append_utf8(0x1F600, &s);
  EXPECT_EQ(s, "\xF0\x9F\x98\x80");
  EXPECT_EQ(decode_utf8(s, 0, valid_utf8_length(s, 0)), 0x1F600u);
}

}  // namespace
}  // namespace ember::llm
