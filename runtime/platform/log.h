// Platform hooks for logging, aborting and reading a clock: the few things a port
// replaces. Defaults (POSIX: stderr, abort(), clock_gettime) live in platform.cc
// and are weak symbols, so a port overrides them by defining the same functions.
// EMBER_LOG formats into a fixed 256-byte stack buffer: it never allocates.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::runtime {

enum class LogLevel : uint8_t { Debug = 0, Info = 1, Error = 2, Fatal = 3 };

// Minimum level that is emitted; messages below it are dropped. Default kInfo.
void set_min_log_level(LogLevel level);
LogLevel min_log_level();

// Formats and emits one log line through pal_emit_log. printf-style.
void log_message(LogLevel level, const char* file, int line, const char* format, ...)
    __attribute__((format(printf, 4, 5)));

}  // namespace ember::runtime

extern "C" {
// Writes one formatted message (without trailing newline). Default: stderr.
void ember_pal_emit_log(uint8_t level, const char* file, int line, const char* message,
                        size_t length);
// Never returns. Default: std::abort().
[[noreturn]] void ember_pal_abort(void);
// Monotonic time in nanoseconds. Default: clock_gettime(CLOCK_MONOTONIC).
uint64_t ember_pal_now_ns(void);
}

#if defined(EMBER_NO_MESSAGES)
// A build without message text (runtime/core/diagnostics.h): the call is type-checked, never
// made, and its format string and file name stay out of the binary.
#define EMBER_LOG(level, ...)                                                                \
  do {                                                                                       \
    if (false) {                                                                             \
      ::ember::runtime::log_message(::ember::runtime::LogLevel::level, "", 0, __VA_ARGS__); \
    }                                                                                        \
  } while (false)
#else
#define EMBER_LOG(level, ...)                                                              \
  ::ember::runtime::log_message(::ember::runtime::LogLevel::level, __FILE__, __LINE__, \
                                __VA_ARGS__)
#endif
