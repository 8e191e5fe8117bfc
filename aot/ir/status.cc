// Names and formatting for ember::aot::Status.
#include "aot/ir/status.h"

#include <cstdio>

namespace ember::aot {

const char* to_string(StatusCode code) {
  switch (code) {
    case StatusCode::kOk:
      return "Ok";
    case StatusCode::kInternal:
      return "Internal";
    case StatusCode::kInvalidState:
      return "InvalidState";
    case StatusCode::kNotSupported:
      return "NotSupported";
    case StatusCode::kNotImplemented:
      return "NotImplemented";
    case StatusCode::kInvalidArgument:
      return "InvalidArgument";
    case StatusCode::kInvalidType:
      return "InvalidType";
    case StatusCode::kOperatorMissing:
      return "OperatorMissing";
    case StatusCode::kNotFound:
      return "NotFound";
    case StatusCode::kAccessFailed:
      return "AccessFailed";
    case StatusCode::kInvalidProgram:
      return "InvalidProgram";
    case StatusCode::kInvalidExternalData:
      return "InvalidExternalData";
  }
  return "Unknown";
}

Status& Status::annotate(const std::string& context) {
  if (!is_ok()) message_ = context + ": " + message_;
  return *this;
}

std::string Status::to_string() const {
  if (is_ok()) return "Ok";
  char code[16];
  std::snprintf(code, sizeof(code), "0x%02x", static_cast<unsigned>(code_));
  return std::string(::ember::aot::to_string(code_)) + " (" + code + "): " + message_;
}

}  // namespace ember::aot
