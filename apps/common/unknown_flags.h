// Unknown command-line flags, found before gflags sees them (issue #33: a misspelled flag got
// gflags' bare "unknown command line flag" and exit status 1, where docs/error_handling.md
// says bad usage is 2).
//
// check_unknown_flags() walks argv like gflags does ("--name", "-name", "--name=value",
// "--noBOOL", a separate value after a non-bool flag, "--" ends the flags) and returns
// InvalidArgument for the first name that is neither a registered gflags flag nor one of
// `extra` (flags a tool takes itself, like lower's repeatable --pass), naming it and the
// closest known flag when one is near ("unknown flag '--recipie'; did you mean '--recipe'?").
// The tool prints it as its usual error line and exits 2.
#pragma once

#include <string>
#include <vector>

#include "runtime/core/error.h"

namespace ember::apps {

runtime::Error check_unknown_flags(int argc, char** argv, const std::vector<std::string>& extra = {});

// The known name closest to `name` (edit distance at most a third of its length, at least
// 2), or "" (exposed for tests).
std::string closest_flag(const std::string& name, const std::vector<std::string>& known);

}  // namespace ember::apps
