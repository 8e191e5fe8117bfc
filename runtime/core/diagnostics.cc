#include "runtime/core/diagnostics.h"

#include <cstdarg>
#include <cstdio>
#include <cstring>

#include "runtime/platform/log.h"

namespace ember::runtime {

#if defined(EMBER_NO_MESSAGES)

// No message text in this build (diagnostics.h): no buffer either.
const char* last_error_message() { return ""; }

void clear_error_message() {}

const char* format_error(Error error, char* buffer, size_t size) {
  snprintf(buffer, size, "%s (0x%02x)", error_name(error), static_cast<unsigned>(error));
  return buffer;
}

#else
namespace {

thread_local char t_message[kMaxErrorMessageLength];

}  // namespace

Error fail(Error error, const char* format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(t_message, sizeof(t_message), format, args);
  va_end(args);
  EMBER_LOG(Debug, "%s (0x%02x): %s", error_name(error), static_cast<unsigned>(error), t_message);
  return error;
}

Error annotate(Error error, const char* format, ...) {
  // "<context>: <message>" in place: measure the context, move the message right, write the
  // context and the separator in front. No second buffer, so the stack cost stays small.
  const size_t capacity = sizeof(t_message) - 1;  // characters, without the NUL
  va_list args;
  va_start(args, format);
  va_list measure;
  va_copy(measure, args);
  const int n = vsnprintf(nullptr, 0, format, measure);
  va_end(measure);
  if (n < 0) {
    va_end(args);
    return error;
  }
  const size_t context = static_cast<size_t>(n) < capacity ? static_cast<size_t>(n) : capacity;
  const size_t prefix = context + 2 < capacity ? context + 2 : capacity;
  const size_t old_length = strnlen(t_message, capacity);
  const size_t kept = old_length < capacity - prefix ? old_length : capacity - prefix;
  memmove(t_message + prefix, t_message, kept);
  t_message[prefix + kept] = '\0';
  vsnprintf(t_message, context + 1, format, args);  // writes a NUL at [context], replaced below
  va_end(args);
  const char separator[2] = {':', ' '};
  for (size_t i = context; i < prefix; ++i) t_message[i] = separator[i - context];
  return error;
}

const char* last_error_message() { return t_message; }

void clear_error_message() { t_message[0] = '\0'; }

const char* format_error(Error error, char* buffer, size_t size) {
  snprintf(buffer, size, "%s (0x%02x): %s", error_name(error), static_cast<unsigned>(error),
           t_message[0] != '\0' ? t_message : error_meaning(error));
  return buffer;
}

#endif  // EMBER_NO_MESSAGES

}  // namespace ember::runtime
