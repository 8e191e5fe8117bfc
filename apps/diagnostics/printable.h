// Text that came from a file, made safe to print: control bytes (and DEL) become \xNN,
// quotes and backslashes are escaped (\" and \\). Shared by executor_runner's tools and
// aot/tools' inspect, so a name reads the same in every tool.
#pragma once

#include <string>
#include <string_view>

namespace ember::runtime {

std::string printable(std::string_view text);

}  // namespace ember::runtime
