#include "runtime/core/diagnostics.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "runtime/platform/log.h"

namespace ember::runtime {
namespace {

thread_local char t_message[kMaxErrorMessageLength];

}  // namespace

Error fail(Error error, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(t_message, sizeof(t_message), format, args);
  va_end(args);
  EMBER_LOG(Error, "%s (0x%02x): %s", error_name(error), static_cast<unsigned>(error), t_message);
  return error;
}

Error annotate(Error error, const char* format, ...) {
  char context[kMaxErrorMessageLength];
  va_list args;
  va_start(args, format);
  vsnprintf(context, sizeof(context), format, args);
  va_end(args);
  char combined[kMaxErrorMessageLength];
  const int n = snprintf(combined, sizeof(combined), "%s: %s", context, t_message);
  if (n < 0) return error;
  memcpy(t_message, combined, sizeof(t_message));
  return error;
}

const char* last_error_message() { return t_message; }

void clear_error_message() { t_message[0] = '\0'; }

const char* format_error(Error error, char* buffer, size_t size) {
  snprintf(buffer, size, "%s (0x%02x): %s", error_name(error), static_cast<unsigned>(error),
           t_message[0] != '\0' ? t_message : error_meaning(error));
  return buffer;
}

}  // namespace ember::runtime
