// check_unknown_flags: misspelled flags are InvalidArgument with the nearest known flag,
// known flags in every gflags spelling pass, values of non-bool flags are skipped, "--" ends
// the flags, and a tool's own (non-gflags) flags are accepted.
#include "apps/common/unknown_flags.h"

#include <gflags/gflags.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"

DEFINE_string(recipe, "portable", "test flag");
DEFINE_int32(num_executions, 1, "test flag");
DEFINE_bool(verbose, false, "test flag");
DEFINE_string(dump_dir, "", "test flag");

namespace ember::apps {
namespace {

runtime::Error check(std::vector<std::string> args, const std::vector<std::string>& extra = {}) {
  args.insert(args.begin(), "tool");
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  return check_unknown_flags(int(argv.size()), argv.data(), extra);
}

std::string message() { return runtime::last_error_message(); }

TEST(UnknownFlagsTest, MisspelledFlagNamesTheClosest) {
  EXPECT_EQ(check({"m.pt2", "--recipie", "xnnpack"}), runtime::Error::InvalidArgument);
  EXPECT_EQ(message(), "unknown flag '--recipie'; did you mean '--recipe'?");
  EXPECT_EQ(check({"--num_execution=3"}), runtime::Error::InvalidArgument);
  EXPECT_EQ(message(), "unknown flag '--num_execution'; did you mean '--num_executions'?");
  EXPECT_EQ(check({"--zzzzzzzzzzzzzz"}), runtime::Error::InvalidArgument);
  EXPECT_EQ(message(), "unknown flag '--zzzzzzzzzzzzzz' (--help lists the flags)");
}

TEST(UnknownFlagsTest, KnownFlagsInEverySpellingPass) {
  EXPECT_EQ(check({"m.pt2", "--recipe", "xnnpack", "-num_executions=2", "--verbose", "--noverbose",
                   "--dump-dir", "d", "--num_executions", "-1"}),
            runtime::Error::Ok)
      << message();
  EXPECT_EQ(check({"--pass", "--weird-value", "--", "--anything"}, {"pass"}), runtime::Error::Ok) << message();
  EXPECT_EQ(check({"--nonexistent_bool"}), runtime::Error::InvalidArgument);
}

TEST(UnknownFlagsTest, ControlBytesInTheNameAreEscaped) {
  EXPECT_EQ(check({"--a\x1b[8m"}), runtime::Error::InvalidArgument);
  EXPECT_EQ(message().find('\x1b'), std::string::npos) << message();
}

}  // namespace
}  // namespace ember::apps
