// The counting allocation interposers behind AllocationCounter (allocation_counter.h).
#include "tests/support/allocation_counter.h"

#include <atomic>
#include <cstddef>
#include <cstdlib>
#include <new>

#if defined(__SANITIZE_ADDRESS__)
#define EMBER_COUNT_MALLOC 0  // ASan owns malloc; count operator new only
#else
#define EMBER_COUNT_MALLOC 1
#endif

namespace {
std::atomic<bool> g_armed{false};
std::atomic<long> g_allocations{0};
void count_one() {
  if (g_armed.load(std::memory_order_relaxed)) g_allocations.fetch_add(1);
}
}  // namespace

namespace ember::testing {

void AllocationCounter::arm() {
  g_allocations = 0;
  g_armed = true;
}

long AllocationCounter::disarm() {
  g_armed = false;
  return g_allocations.load();
}

long AllocationCounter::count() { return g_allocations.load(); }

bool AllocationCounter::counts_malloc() { return EMBER_COUNT_MALLOC != 0; }

}  // namespace ember::testing

#if EMBER_COUNT_MALLOC
extern "C" {
void* __libc_malloc(size_t);
void* __libc_calloc(size_t, size_t);
void* __libc_realloc(void*, size_t);
void* __libc_memalign(size_t, size_t);
void __libc_free(void*);
void* malloc(size_t n) {
  count_one();
  return __libc_malloc(n);
}
void* calloc(size_t n, size_t m) {
  count_one();
  return __libc_calloc(n, m);
}
void* realloc(void* p, size_t n) {
  count_one();
  return __libc_realloc(p, n);
}
void* aligned_alloc(size_t a, size_t n) {
  count_one();
  return __libc_memalign(a, n);
}
int posix_memalign(void** out, size_t a, size_t n) {
  count_one();
  *out = __libc_memalign(a, n);
  return *out == nullptr ? 12 : 0;
}
void free(void* p) { __libc_free(p); }
}
#endif

void* operator new(size_t n) {
  count_one();
  void* p = std::malloc(n == 0 ? 1 : n);
  if (p == nullptr) std::abort();
  return p;
}
void* operator new[](size_t n) { return operator new(n); }
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
