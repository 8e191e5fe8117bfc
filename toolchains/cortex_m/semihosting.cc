#include "toolchains/cortex_m/semihosting.h"

#include <cstring>

#include "runtime/platform/log.h"

namespace ember::cortex_m {

namespace {

constexpr uint32_t kSysWrite0 = 0x04;
constexpr uint32_t kSysExit = 0x18;
constexpr uint32_t kApplicationExit = 0x20026;     // ADP_Stopped_ApplicationExit
constexpr uint32_t kRunTimeErrorUnknown = 0x20023;  // ADP_Stopped_RunTimeErrorUnknown

uint32_t call(uint32_t op, const void* arg) {
  register uint32_t r0 asm("r0") = op;
  register const void* r1 asm("r1") = arg;
  asm volatile("bkpt 0xab" : "+r"(r0) : "r"(r1) : "memory");
  return r0;
}

}  // namespace

void write(const char* text, size_t length) {
  char chunk[65];
  while (length > 0) {
    const size_t n = length < 64 ? length : 64;
    std::memcpy(chunk, text, n);
    chunk[n] = '\0';
    call(kSysWrite0, chunk);
    text += n;
    length -= n;
  }
}

void print(const char* text) { write(text, std::strlen(text)); }

void print_int(long long value) {
  char buf[24];
  char* p = buf + sizeof(buf);
  const bool negative = value < 0;
  unsigned long long v = negative ? 0ull - static_cast<unsigned long long>(value) : value;
  do {
    *--p = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v != 0);
  if (negative) *--p = '-';
  write(p, static_cast<size_t>(buf + sizeof(buf) - p));
}

void exit(int status) {
  // 32-bit semihosting passes the reason itself; qemu maps ApplicationExit to status 0.
  call(kSysExit, reinterpret_cast<const void*>(status == 0 ? kApplicationExit : kRunTimeErrorUnknown));
  for (;;) {
  }
}

}  // namespace ember::cortex_m

// The platform hooks (runtime/platform/log.h), replacing the hosted defaults (stderr,
// std::abort, clock_gettime) that a bare-metal image cannot use.
extern "C" {

void ember_pal_emit_log(uint8_t level, const char* file, int line, const char* message, size_t length) {
  static const char kLevels[] = {'D', 'I', 'E', 'F'};
  const char tag[2] = {level < 4 ? kLevels[level] : '?', '\0'};
  ember::cortex_m::print(tag);
  ember::cortex_m::print(" ember: ");
  ember::cortex_m::write(message, length);
  ember::cortex_m::print("\n");
  (void)file;
  (void)line;
}

void ember_pal_abort(void) {
  ember::cortex_m::print("ember: abort\n");
  ember::cortex_m::exit(134);
}

uint64_t ember_pal_now_ns(void) { return 0; }  // no clock on this board model: profiling reads 0

}  // extern "C"
