// Text that came from a file, made safe to print: control bytes (and DEL) become \xNN,
// quotes and backslashes are escaped (\" and \\). Shared by every program in apps/, so a
// name reads the same in every tool.
#pragma once

#include <string>
#include <string_view>

namespace ember::runtime {

std::string printable(std::string_view text);

}  // namespace ember::runtime
