// Errors as values for the AoT toolchain: ember::aot::Status and StatusOr<T>.
//
// The AoT side runs on build servers, so a Status may own a std::string message,
// but it never throws across our APIs. Codes reuse the numeric values of the
// runtime's Error enum (docs/error_handling.md) so that a code means the same thing
// on both halves; every code has a name printed next to its value. Messages name the
// thing that is wrong and give expected versus actual; callers annotate errors on the
// way up with Status::annotate ("reading weights: " + inner message).
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace ember::aot {

enum class StatusCode : uint32_t {
  kOk = 0x00,                   // success
  kInternal = 0x01,             // an internal invariant failed (a bug in Ember)
  kInvalidState = 0x02,         // the object is not in a state that allows this call
  kNotSupported = 0x10,         // valid, but not supported by this toolchain (yet)
  kNotImplemented = 0x11,       // not implemented yet
  kInvalidArgument = 0x12,      // an argument or option is invalid
  kInvalidType = 0x13,          // a value has the wrong type (tag or dtype)
  kOperatorMissing = 0x14,      // the graph uses an operator with no known schema
  kNotFound = 0x20,             // a named thing (file, entry, value, weight) does not exist
  kAccessFailed = 0x22,         // reading a file or buffer failed
  kInvalidProgram = 0x23,       // the input program (.pt2 graph JSON) is malformed
  kInvalidExternalData = 0x24,  // weights or other payloads are malformed or mismatched
};

// "InvalidProgram" for kInvalidProgram, "Unknown" for values outside the enum.
const char* to_string(StatusCode code);

class [[nodiscard]] Status {
 public:
  Status() = default;  // Ok
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}
  static Status ok() { return Status(); }

  bool is_ok() const { return code_ == StatusCode::kOk; }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

  // Prefixes the message with context: "file.pt2: " + message. No-op on Ok.
  Status& annotate(const std::string& context);
  // "InvalidProgram (0x23): node 3 (aten::add.Tensor): ..." or "Ok".
  std::string to_string() const;

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

// Shorthands for the common error constructors.
inline Status invalid_program(std::string m) {
  return Status(StatusCode::kInvalidProgram, std::move(m));
}
inline Status invalid_data(std::string m) {
  return Status(StatusCode::kInvalidExternalData, std::move(m));
}
inline Status not_found(std::string m) { return Status(StatusCode::kNotFound, std::move(m)); }
inline Status not_supported(std::string m) {
  return Status(StatusCode::kNotSupported, std::move(m));
}
inline Status invalid_argument(std::string m) {
  return Status(StatusCode::kInvalidArgument, std::move(m));
}

// Holds either a T or a non-Ok Status. Constructing from an Ok Status is a bug and is
// turned into kInternal.
template <typename T>
class [[nodiscard]] StatusOr {
 public:
  StatusOr(T value) : has_value_(true), value_(std::move(value)) {}  // NOLINT
  StatusOr(Status status) : status_(std::move(status)) {             // NOLINT
    if (status_.is_ok()) status_ = Status(StatusCode::kInternal, "StatusOr built from Ok");
  }
  bool is_ok() const { return has_value_; }
  const Status& status() const { return status_; }
  Status take_status() { return std::move(status_); }
  T& value() & { return value_; }
  const T& value() const& { return value_; }
  T&& value() && { return std::move(value_); }
  T* operator->() { return &value_; }
  const T* operator->() const { return &value_; }
  T& operator*() & { return value_; }
  const T& operator*() const& { return value_; }

 private:
  bool has_value_ = false;
  Status status_;
  T value_{};
};

}  // namespace ember::aot

#define EMBER_AOT_CONCAT_INNER_(a, b) a##b
#define EMBER_AOT_CONCAT_(a, b) EMBER_AOT_CONCAT_INNER_(a, b)

// Returns the Status of `expr` from the enclosing function if it is not Ok.
#define EMBER_AOT_RETURN_IF_ERROR(expr)                       \
  do {                                                        \
    ::ember::aot::Status ember_aot_status_ = (expr);          \
    if (!ember_aot_status_.is_ok()) return ember_aot_status_; \
  } while (0)

// Like EMBER_AOT_RETURN_IF_ERROR, prefixing the message with `context` (a std::string).
#define EMBER_AOT_RETURN_IF_ERROR_CTX(expr, context)                            \
  do {                                                                          \
    ::ember::aot::Status ember_aot_status_ = (expr);                            \
    if (!ember_aot_status_.is_ok()) return ember_aot_status_.annotate(context); \
  } while (0)

// `lhs = value of expr` or return its Status. lhs may declare a variable (auto x).
#define EMBER_AOT_ASSIGN_OR_RETURN(lhs, expr) \
  EMBER_AOT_ASSIGN_OR_RETURN_IMPL_(EMBER_AOT_CONCAT_(ember_aot_or_, __LINE__), lhs, expr)
#define EMBER_AOT_ASSIGN_OR_RETURN_IMPL_(tmp, lhs, expr) \
  auto tmp = (expr);                                     \
  if (!tmp.is_ok()) return tmp.take_status();            \
  lhs = std::move(tmp).value()
