#include "aot/ir/error.h"

namespace ember::aot {

Error fail(Error code, const std::string& message) {
  return runtime::fail(code, "%s", message.c_str());
}

Error annotate(Error code, const std::string& context) {
  // A message that already starts with this context ("model.pt2: entry ... is damaged",
  // written by a reader that knew the name) keeps it once.
  const std::string prefix = context + ": ";
  if (std::string(last_error_message()).compare(0, prefix.size(), prefix) == 0) return code;
  return runtime::annotate(code, "%s", context.c_str());
}

std::string format_error(Error code) {
  if (code == Error::Ok) return "Ok";
  char buffer[runtime::kMaxErrorMessageLength + 64];
  return runtime::format_error(code, buffer, sizeof(buffer));
}

}  // namespace ember::aot
