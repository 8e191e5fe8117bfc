// Start-up code for the MPS2 AN385 (Cortex-M3) image: the vector table, .data copied from
// flash, .bss and the thread-local block zeroed (one thread: the runtime's thread_local
// diagnostics live in a static block __aeabi_read_tp returns), static constructors run, then
// main(); its return value is the semihosting exit status. Also the few C++ runtime hooks a
// -fno-exceptions image still references, each ending the run rather than unwinding.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "toolchains/cortex_m/semihosting.h"

extern "C" {

// From mps2_an385.ld.
extern uint32_t __stack_top;
extern uint8_t __data_load, __data_start, __data_end, __bss_start, __bss_end;
extern uint8_t __tdata_load, __tdata_start, __tdata_end, __tbss_end, __tls_tp;
extern void (*__init_array_start[])(void);
extern void (*__init_array_end[])(void);

int main(void);

[[noreturn]] void ember_reset_handler(void) {
  std::memcpy(&__data_start, &__data_load, static_cast<size_t>(&__data_end - &__data_start));
  std::memset(&__bss_start, 0, static_cast<size_t>(&__bss_end - &__bss_start));
  std::memcpy(&__tdata_start, &__tdata_load, static_cast<size_t>(&__tdata_end - &__tdata_start));
  std::memset(&__tdata_end, 0, static_cast<size_t>(&__tbss_end - &__tdata_end));
  for (auto* f = __init_array_start; f != __init_array_end; ++f) (*f)();
  ember::cortex_m::exit(main());
}

[[noreturn]] void ember_fault_handler(void) {
  ember::cortex_m::print("ember: hard fault\n");
  ember::cortex_m::exit(3);
}

// The ARM EABI thread pointer: the TLS block starts 8 bytes (the TCB) past it. Clobbers r0
// only, as the EABI requires.
__attribute__((naked)) void* __aeabi_read_tp(void) {
  asm volatile("ldr r0, =__tls_tp\n bx lr\n");
}

// No heap: newlib's formatted output keeps a reference to malloc (for its growable buffers,
// which the runtime never asks for); the heap it would grow has zero bytes, so any malloc
// returns null. No file system either: the few syscalls newlib names fail.
void* _sbrk(ptrdiff_t) { return reinterpret_cast<void*>(-1); }
int _write(int, const void*, size_t) { return -1; }
int _read(int, void*, size_t) { return -1; }
int _close(int) { return -1; }
int _lseek(int, int, int) { return -1; }
int _isatty(int) { return 0; }
struct stat;
int _fstat(int, struct stat*) { return -1; }

// Pure virtual calls and C++ runtime aborts: no exceptions to throw, so stop.
void __cxa_pure_virtual(void) { ember_fault_handler(); }
void abort(void) { ember_fault_handler(); }

// Vector table: initial stack pointer, reset, NMI, HardFault, MemManage, BusFault, UsageFault.
__attribute__((section(".vectors"), used)) const void* const ember_vectors[] = {
    &__stack_top,
    reinterpret_cast<const void*>(&ember_reset_handler),
    reinterpret_cast<const void*>(&ember_fault_handler),
    reinterpret_cast<const void*>(&ember_fault_handler),
    reinterpret_cast<const void*>(&ember_fault_handler),
    reinterpret_cast<const void*>(&ember_fault_handler),
    reinterpret_cast<const void*>(&ember_fault_handler),
};

}  // extern "C"

// The deleting destructors of classes with virtual destructors name operator delete; nothing
// in the image allocates, so reaching it is a bug.
void operator delete(void*) noexcept { ember_fault_handler(); }
void operator delete(void*, size_t) noexcept { ember_fault_handler(); }
