// printable() and json_quoted() on hand-written cases (expected strings written out by hand
// from the rules in printable.h), plus two independent checks over every byte value and
// random bytes: glibc's UTF-8 decoder (mbstowcs in C.UTF-8) accepts every printable()
// result, which holds no C0 control or DEL byte, and nlohmann's JSON parser accepts every
// json_quoted() result and decodes valid UTF-8 text back to itself.
#include "apps/common/printable.h"

#include <gtest/gtest.h>

#include <clocale>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <random>
#include <string>

namespace ember::apps {
namespace {

TEST(PrintableTest, HandWrittenCases) {
  EXPECT_EQ(printable("aten::add.out"), "aten::add.out");
  // issue #33: ESC[8m hid the rest of the output, a newline forged an OK line.
  EXPECT_EQ(printable("\x1b[8mhidden"), "\\x1b[8mhidden");
  EXPECT_EQ(printable("x\nexecutor_runner: OK: all outputs match --expected"),
            "x\\x0aexecutor_runner: OK: all outputs match --expected");
  EXPECT_EQ(printable("a\rb\tc\x7f"), "a\\x0db\\x09c\\x7f");
  EXPECT_EQ(printable("say \"hi\" \\ bye"), "say \\\"hi\\\" \\\\ bye");
  EXPECT_EQ(printable("caf\xc3\xa9 \xf0\x9f\x98\x80"), "caf\xc3\xa9 \xf0\x9f\x98\x80");  // é, 😀
  EXPECT_EQ(printable("\xff"), "\\xff");
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");                    // overlong '/'
  EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");                    // truncated €
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");           // surrogate U+D800
  EXPECT_EQ(printable("\xf4\x90\x80\x80"), "\\xf4\\x90\\x80\\x80");  // U+110000
  EXPECT_EQ(printable("\xc2\x9b"
                      "31m"),
            "\\u009b31m");  // C1 CSI
  EXPECT_EQ(printable("abc\xe2\x80\xae"
                      "fdp.exe"),
            "abc\\u202efdp.exe");  // RIGHT-TO-LEFT OVERRIDE
  EXPECT_EQ(printable(std::string("a\0b", 3)), "a\\x00b");
}

// A tool's whole error line: control bytes escaped as printable() does, its quotes kept.
TEST(PrintableTest, MessageKeepsQuotesAndEscapesControls) {
  EXPECT_EQ(printable_message("needs a \"cases\" list in 'a\\b.json'"), "needs a \"cases\" list in 'a\\b.json'");
  EXPECT_EQ(printable_message("operator 'x\x1b[8m\nexecutor_runner: OK' has no kernel"),
            "operator 'x\\x1b[8m\\x0aexecutor_runner: OK' has no kernel");
  EXPECT_EQ(printable_message("\xff\xc2\x9b"), "\\xff\\u009b");
}

TEST(PrintableTest, JsonQuotedHandWrittenCases) {
  EXPECT_EQ(json_quoted("relu"), "\"relu\"");
  EXPECT_EQ(json_quoted("\x1b[8m"), "\"\\u001b[8m\"");
  EXPECT_EQ(json_quoted("a\"b\\c\n"), "\"a\\\"b\\\\c\\u000a\"");
  EXPECT_EQ(json_quoted("\xff"), "\"\\\\xff\"");  // decodes to the text \xff
  EXPECT_EQ(json_quoted("\xe2\x80\xae"), "\"\\u202e\"");
  EXPECT_EQ(json_quoted("caf\xc3\xa9"), "\"caf\xc3\xa9\"");
}

std::string random_bytes(std::mt19937* rng, size_t n) {
  std::string s;
  for (size_t i = 0; i < n; ++i) s += static_cast<char>((*rng)() & 0xff);
  return s;
}

TEST(PrintableTest, EveryResultIsValidUtf8WithoutControlBytes) {
  ASSERT_NE(std::setlocale(LC_CTYPE, "C.UTF-8"), nullptr);
  std::mt19937 rng(33);
  std::vector<std::string> inputs;
  for (int b = 0; b < 256; ++b) inputs.push_back(std::string(1, static_cast<char>(b)));
  for (int i = 0; i < 2000; ++i) inputs.push_back(random_bytes(&rng, 1 + i % 24));
  for (const std::string& in : inputs) {
    const std::string out = printable(in);
    for (unsigned char c : out) ASSERT_TRUE(c >= 0x20 && c != 0x7f) << out;
    ASSERT_NE(std::mbstowcs(nullptr, out.c_str(), 0), static_cast<size_t>(-1)) << out;
    const std::string json = json_quoted(in);
    nlohmann::json parsed;
    ASSERT_NO_THROW(parsed = nlohmann::json::parse(json)) << json;
    ASSERT_TRUE(parsed.is_string());
    if (printable(in).find("\\x") == std::string::npos) {  // valid UTF-8: decodes to itself
      ASSERT_EQ(parsed.get<std::string>(), in);
    }
  }
}

}  // namespace
}  // namespace ember::apps
