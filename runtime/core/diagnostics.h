// Error messages without allocation, for both halves of Ember (the AoT toolchain
// uses the same store through aot/ir/error.h). Before a function returns an Error it
// records *why* with fail(): a printf-style message naming the thing and expected
// versus actual values, kept in a fixed thread-local buffer (and logged at Debug
// level). Callers read it with last_error_message() right after a failed call; the
// code that finally handles the error prints it once (executor_runner prints
// "InvalidArgument (0x12): <message>"). Context is added on the way up with
// annotate(), which prefixes the current message.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"

namespace ember::runtime {

// Capacity of the message buffer, including the terminating NUL. Longer messages are
// cut at the end. A port with little RAM can build with a smaller value.
#ifndef EMBER_MAX_ERROR_MESSAGE_LENGTH
#define EMBER_MAX_ERROR_MESSAGE_LENGTH 2048
#endif
constexpr size_t kMaxErrorMessageLength = EMBER_MAX_ERROR_MESSAGE_LENGTH;

#if defined(EMBER_NO_MESSAGES)
// A build without message text (-DEMBER_NO_MESSAGES, .bazelrc --config=no_messages, which
// --config=cortex_m includes; docs/footprint.md): fail() and annotate() return the error code
// and drop the text, which the compiler then leaves out of the binary; last_error_message() is
// always "" and format_error() prints the code's name. Error codes are unchanged.
template <typename... Args>
inline Error fail(Error error, const char* /*format*/, const Args&... /*args*/) {
  return error;
}
template <typename... Args>
inline Error annotate(Error error, const char* /*format*/, const Args&... /*args*/) {
  return error;
}
#else
// Records `format` as this thread's last error message, logs it, returns `error`.
Error fail(Error error, const char* format, ...) __attribute__((format(printf, 2, 3)));

// Prefixes this thread's last error message with "<context>: ", returns `error`.
Error annotate(Error error, const char* format, ...) __attribute__((format(printf, 2, 3)));
#endif

// The message recorded by the last fail() on this thread ("" if none).
const char* last_error_message();

// Clears this thread's last error message.
void clear_error_message();

// Writes "<Name> (0x<hex>): <last message>" into `buffer`; returns `buffer`.
const char* format_error(Error error, char* buffer, size_t size);

}  // namespace ember::runtime

// Returns from the enclosing function if `expr` (an Error) is not Ok.
#define EMBER_TRY(expr)                                             \
  do {                                                              \
    const ::ember::runtime::Error ember_try_error_ = (expr);        \
    if (ember_try_error_ != ::ember::runtime::Error::Ok) {          \
      return ember_try_error_;                                      \
    }                                                               \
  } while (false)

// Like EMBER_TRY, but first prefixes the message with context: printf-style arguments,
// or (in the AoT, aot/ir/error.h) one std::string. `annotate` is found by argument-dependent
// lookup on the Error, so both forms work.
#define EMBER_TRY_CONTEXT(expr, ...)                                \
  do {                                                              \
    const ::ember::runtime::Error ember_try_error_ = (expr);        \
    if (ember_try_error_ != ::ember::runtime::Error::Ok) {          \
      return annotate(ember_try_error_, __VA_ARGS__);               \
    }                                                               \
  } while (false)

// If `cond` is false, records the message and returns `error` from the function.
#define EMBER_CHECK_OR_RETURN(cond, error, ...)                                     \
  do {                                                                              \
    if (!(cond)) {                                                                  \
      return ::ember::runtime::fail(::ember::runtime::Error::error, __VA_ARGS__);   \
    }                                                                               \
  } while (false)
