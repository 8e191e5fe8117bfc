// The XNNPACK allocator: alignment XNNPACK asks for, 2 MiB blocks marked for huge pages.
#include "backends/xnnpack/runtime/xnn_allocator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace ember::backends::xnnpack {
namespace {

// The "THPeligible:" line of /proc/self/smaps for the mapping holding `p`; -1 when unreadable.
int thp_eligible(const void* p) {
  FILE* f = fopen("/proc/self/smaps", "r");
  if (f == nullptr) return -1;
  char line[512];
  bool inside = false;
  int eligible = -1;
  while (fgets(line, sizeof(line), f) != nullptr) {
    unsigned long lo = 0, hi = 0;
    if (sscanf(line, "%lx-%lx ", &lo, &hi) == 2) {  // a mapping's first line
      inside = uintptr_t(p) >= lo && uintptr_t(p) < hi;
      continue;
    }
    if (inside && strncmp(line, "THPeligible:", 12) == 0) {
      eligible = atoi(line + 12);
      break;
    }
  }
  fclose(f);
  return eligible;
}

std::string thp_mode() {
  FILE* f = fopen("/sys/kernel/mm/transparent_hugepage/enabled", "r");
  if (f == nullptr) return "";
  char buf[128] = {};
  // The result is checked, not cast away: (void) does not silence warn_unused_result, and
  // _FORTIFY_SOURCE at -c opt makes that an error.
  const bool read = fgets(buf, sizeof(buf), f) != nullptr;
  fclose(f);
  return read ? buf : "";
}

TEST(XnnAllocator, SmallBlocksKeepTheRequestedAlignment) {
  const xnn_allocator* a = xnn_allocator_with_huge_pages();
  for (size_t alignment : {size_t{16}, size_t{64}, size_t{128}}) {
    void* p = a->aligned_allocate(a->context, alignment, 1000);
    ASSERT_NE(p, nullptr);
    EXPECT_EQ(uintptr_t(p) % alignment, 0u);
    memset(p, 1, 1000);
    a->aligned_deallocate(a->context, p);
  }
  void* q = a->allocate(a->context, 10);
  q = a->reallocate(a->context, q, 100000);
  ASSERT_NE(q, nullptr);
  a->deallocate(a->context, q);
}

TEST(XnnAllocator, LargeBlocksAreHugePageAlignedAndAdvised) {
  const xnn_allocator* a = xnn_allocator_with_huge_pages();
  const size_t size = kHugePageBytes + 12345;  // rounded up to two huge pages
  auto* p = static_cast<unsigned char*>(a->aligned_allocate(a->context, 64, size));
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(uintptr_t(p) % kHugePageBytes, 0u);
  memset(p, 7, size);  // the whole block is usable
  EXPECT_EQ(p[size - 1], 7);
  const std::string mode = thp_mode();
  // qemu-user (--config=aarch64's test wrapper sets EMBER_QEMU_USER) emulates
  // /proc/self/smaps with THPeligible 0 for every mapping: nothing to check there.
  const bool emulated = getenv("EMBER_QEMU_USER") != nullptr;
  if (emulated) std::printf("qemu-user: THP eligibility not checked (emulated smaps)\n");
  if (!emulated &&
      (mode.find("[madvise]") != std::string::npos || mode.find("[always]") != std::string::npos)) {
    const int eligible = thp_eligible(p);
    if (eligible >= 0) {
      EXPECT_EQ(eligible, 1) << "THP mode " << mode;
    }
  }
  a->aligned_deallocate(a->context, p);
}

}  // namespace
}  // namespace ember::backends::xnnpack
