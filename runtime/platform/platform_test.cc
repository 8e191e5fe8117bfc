// Platform hooks as a port sees them: this test defines ember_pal_emit_log (the
// default is weak), so EMBER_LOG's output arrives here: one printf-formatted line
// with the caller's file and line, cut to the 255 characters the fixed 256-byte
// buffer holds, levels ordered Debug < Info < Error, and Debug dropped at the
// default minimum level. ember_pal_now_ns never goes back and sees a 2 ms sleep.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

#include "runtime/platform/log.h"

namespace {

struct LogLine {
  uint8_t level;
  std::string file;
  int line;
  std::string message;
};

std::vector<LogLine>& lines() {
  static std::vector<LogLine> lines;
  return lines;
}

}  // namespace

extern "C" void ember_pal_emit_log(uint8_t level, const char* file, int line, const char* message,
                                   size_t length) {
  lines().push_back({level, file, line, std::string(message, length)});
}

namespace ember::runtime {
namespace {

TEST(PlatformTest, LogFormatsOneLineThroughTheHook) {
  lines().clear();
  const int line = __LINE__ + 1;
  EMBER_LOG(Info, "loaded %s in %d ms", "model.pte", 12);
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_EQ(lines()[0].message, "loaded model.pte in 12 ms");
  EXPECT_EQ(lines()[0].line, line);
  EXPECT_NE(lines()[0].file.find("platform_test.cc"), std::string::npos) << lines()[0].file;
}

TEST(PlatformTest, LongMessagesAreCutToTheBuffer) {
  lines().clear();
  const std::string long_text(400, 'x');
  EMBER_LOG(Info, "%s", long_text.c_str());
  ASSERT_EQ(lines().size(), 1u);
  EXPECT_EQ(lines()[0].message, std::string(255, 'x'));
}

TEST(PlatformTest, LevelsAreOrderedAndDebugIsDroppedByDefault) {
  lines().clear();
  EMBER_LOG(Debug, "hidden");
  EMBER_LOG(Info, "info");
  EMBER_LOG(Error, "error");
  ASSERT_EQ(lines().size(), 2u);
  EXPECT_EQ(lines()[0].message, "info");
  EXPECT_EQ(lines()[1].message, "error");
  EXPECT_LT(lines()[0].level, lines()[1].level);
}

TEST(PlatformTest, ClockIsMonotonic) {
  const uint64_t t0 = ember_pal_now_ns();
  std::this_thread::sleep_for(std::chrono::milliseconds(2));
  const uint64_t t1 = ember_pal_now_ns();
  EXPECT_GE(t1 - t0, uint64_t{2000000});
  EXPECT_GE(ember_pal_now_ns(), t1);
}

}  // namespace
}  // namespace ember::runtime
