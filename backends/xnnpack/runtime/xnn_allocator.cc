// XNNPACK's allocator with huge pages for large aligned blocks; see xnn_allocator.h.
#include "backends/xnnpack/runtime/xnn_allocator.h"

#include <sys/mman.h>

#include <cstdlib>

namespace ember::backends::xnnpack {
namespace {

void* allocate(void*, size_t size) { return std::malloc(size); }
void* reallocate(void*, void* pointer, size_t size) { return std::realloc(pointer, size); }
void deallocate(void*, void* pointer) { std::free(pointer); }

void* aligned_allocate(void*, size_t alignment, size_t size) {
  if (size >= kHugePageBytes) {
    const size_t rounded = (size + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
    void* p = std::aligned_alloc(kHugePageBytes > alignment ? kHugePageBytes : alignment, rounded);
    if (p != nullptr) {
#ifdef MADV_HUGEPAGE
      (void)madvise(p, rounded, MADV_HUGEPAGE);  // advice only: failure leaves 4 KiB pages
#endif
      return p;
    }
  }
  void* p = nullptr;
  if (alignment < sizeof(void*)) alignment = sizeof(void*);
  return posix_memalign(&p, alignment, size) == 0 ? p : nullptr;
}

void aligned_deallocate(void*, void* pointer) { std::free(pointer); }

const xnn_allocator kAllocator = {nullptr, allocate, reallocate, deallocate, aligned_allocate, aligned_deallocate};

}  // namespace

const xnn_allocator* xnn_allocator_with_huge_pages() { return &kAllocator; }

}  // namespace ember::backends::xnnpack
