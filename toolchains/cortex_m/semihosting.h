// Arm semihosting on the MPS2 board model (qemu-system-arm -semihosting-config enable=on):
// text to the host's stdout and the exit status of an image. No file system is used.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::cortex_m {

// Writes `length` bytes to the host's console.
void write(const char* text, size_t length);
// Writes a NUL-terminated string.
void print(const char* text);
// Decimal of a signed integer (no printf: keeps stdio out of the image).
void print_int(long long value);
// Ends the emulation: status 0 is success (qemu exits 0), anything else a failure (qemu
// exits 1).
[[noreturn]] void exit(int status);

}  // namespace ember::cortex_m
