// Errors as values for the emitter, the memory planners and the .pte checker.
//
// aot/ir/status.h (ember::aot::Status) had not landed when these libraries were
// written, and they must not depend on the graph IR, so this is a deliberately
// minimal stand-in with the same shape: a code that reuses the runtime Error
// numbering (docs/error_handling.md), a message that names the thing and gives
// expected versus actual, is_ok()/code()/message()/to_string(). An integration
// engineer can replace it by ember::aot::Status with a mechanical rename.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace ember::aot {

enum class EmitCode : uint32_t {
  kOk = 0x00,               // success
  kInternal = 0x01,         // an internal invariant failed (a bug in Ember)
  kNotSupported = 0x10,     // valid, but the runtime would refuse it
  kInvalidArgument = 0x12,  // an input struct or option is invalid
  kNotFound = 0x20,         // a named thing (planner, file) does not exist
  kInvalidProgram = 0x23,   // the program description is inconsistent
};

// "InvalidProgram" for kInvalidProgram; "Unknown" outside the enum.
const char* to_string(EmitCode code);

class [[nodiscard]] EmitStatus {
 public:
  EmitStatus() = default;  // Ok
  EmitStatus(EmitCode code, std::string message)
      : code_(code), message_(std::move(message)) {}

  bool is_ok() const { return code_ == EmitCode::kOk; }
  EmitCode code() const { return code_; }
  const std::string& message() const { return message_; }
  // "InvalidProgram (0x23): method forward: value 3: ..." or "Ok".
  std::string to_string() const;
  // Prefixes the message with `context` + ": ". No-op on Ok.
  EmitStatus& annotate(const std::string& context);

 private:
  EmitCode code_ = EmitCode::kOk;
  std::string message_;
};

inline EmitStatus emit_invalid_program(std::string m) {
  return EmitStatus(EmitCode::kInvalidProgram, std::move(m));
}
inline EmitStatus emit_invalid_argument(std::string m) {
  return EmitStatus(EmitCode::kInvalidArgument, std::move(m));
}

}  // namespace ember::aot

// Returns the EmitStatus of `expr` from the enclosing function if it is not Ok.
#define EMBER_EMIT_RETURN_IF_ERROR(expr)                   \
  do {                                                     \
    ::ember::aot::EmitStatus ember_emit_status_ = (expr);  \
    if (!ember_emit_status_.is_ok()) return ember_emit_status_; \
  } while (0)
