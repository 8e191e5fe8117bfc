#include "aot/ir/error.h"

namespace ember::aot {

Error fail(Error code, const std::string& message) {
  return runtime::fail(code, "%s", message.c_str());
}

Error annotate(Error code, const std::string& context) {
  return runtime::annotate(code, "%s", context.c_str());
}

std::string format_error(Error code) {
  if (code == Error::Ok) return "Ok";
  char buffer[runtime::kMaxErrorMessageLength + 64];
  return runtime::format_error(code, buffer, sizeof(buffer));
}

}  // namespace ember::aot
