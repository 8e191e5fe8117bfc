// Names and formatting for EmitStatus (see emit_status.h).
#include "aot/emit/emit_status.h"

#include <cstdio>

namespace ember::aot {

const char* to_string(EmitCode code) {
  switch (code) {
    case EmitCode::kOk: return "Ok";
    case EmitCode::kInternal: return "Internal";
    case EmitCode::kNotSupported: return "NotSupported";
    case EmitCode::kInvalidArgument: return "InvalidArgument";
    case EmitCode::kNotFound: return "NotFound";
    case EmitCode::kInvalidProgram: return "InvalidProgram";
  }
  return "Unknown";
}

std::string EmitStatus::to_string() const {
  if (is_ok()) return "Ok";
  char code[16];
  std::snprintf(code, sizeof(code), "0x%02x", static_cast<unsigned>(code_));
  return std::string(ember::aot::to_string(code_)) + " (" + code + "): " + message_;
}

EmitStatus& EmitStatus::annotate(const std::string& context) {
  if (!is_ok()) message_ = context + ": " + message_;
  return *this;
}

}  // namespace ember::aot
