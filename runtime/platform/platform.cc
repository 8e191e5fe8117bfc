#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <ctime>

#include "runtime/platform/log.h"

namespace ember::runtime {
namespace {
LogLevel g_min_level = LogLevel::Info;
}  // namespace

void set_min_log_level(LogLevel level) { g_min_level = level; }
LogLevel min_log_level() { return g_min_level; }

void log_message(LogLevel level, const char* file, int line, const char* format, ...) {
  if (level < g_min_level) return;
  char buffer[256];
  va_list args;
  va_start(args, format);
  int n = vsnprintf(buffer, sizeof(buffer), format, args);
  va_end(args);
  if (n < 0) return;
  const size_t length = static_cast<size_t>(n) < sizeof(buffer) ? size_t(n) : sizeof(buffer) - 1;
  ember_pal_emit_log(static_cast<uint8_t>(level), file, line, buffer, length);
}

}  // namespace ember::runtime

// The hosted defaults. A bare-metal build (EMBER_BARE_METAL, toolchains/cortex_m) has no stderr,
// abort() or clock: its port defines the three hooks, and leaving the defaults out keeps stdio
// (and the heap newlib's FILE machinery needs) out of the image.
#ifndef EMBER_BARE_METAL
extern "C" {

__attribute__((weak)) void ember_pal_emit_log(uint8_t level, const char* file, int line,
                                              const char* message, size_t length) {
  static const char kLevels[] = {'D', 'I', 'E', 'F'};
  const char tag = level < 4 ? kLevels[level] : '?';
  const char* base = file;
  for (const char* p = file; *p != '\0'; ++p) {
    if (*p == '/') base = p + 1;
  }
  fprintf(stderr, "%c ember %s:%d] %.*s\n", tag, base, line, static_cast<int>(length), message);
}

__attribute__((weak)) void ember_pal_abort(void) { std::abort(); }

__attribute__((weak)) uint64_t ember_pal_now_ns(void) {
#if !defined(CLOCK_MONOTONIC)
  return 0;  // a libc without clocks (bare-metal newlib): the port supplies its own hook
#else
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
#endif
}

}  // extern "C"
#endif  // EMBER_BARE_METAL
