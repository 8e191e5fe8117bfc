#include "apps/diagnostics/printable.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

TEST(Printable, PlainTextIsUnchanged) { EXPECT_EQ(printable("forward_1.x"), "forward_1.x"); }

TEST(Printable, EscapesQuotesBackslashesAndControlBytes) {
  EXPECT_EQ(printable("fo\"ward"), "fo\\\"ward");
  EXPECT_EQ(printable("a\\b"), "a\\\\b");
  EXPECT_EQ(printable("\x1b[31m"), "\\x1b[31m");
  EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("\x7f\n"), "\\x7f\\x0a");
}

TEST(Printable, KeepsUtf8Bytes) { EXPECT_EQ(printable("caf\xc3\xa9"), "caf\xc3\xa9"); }

}  // namespace
}  // namespace ember::runtime
