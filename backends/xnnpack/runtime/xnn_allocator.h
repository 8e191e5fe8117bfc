// The allocator Ember hands to xnn_initialize: XNNPACK's default (malloc / posix_memalign), except
// that aligned blocks of 2 MiB or more (packed weights, the runtime's activation arena on large
// models) are 2 MiB-aligned, rounded up to whole 2 MiB pages and marked MADV_HUGEPAGE, so the
// kernel backs them with transparent huge pages where it allows them ("madvise" or "always" in
// /sys/kernel/mm/transparent_hugepage/enabled). A convolution streams its packed weights once per
// run; on ResNet-18 (44 MB of weights) that is ~11,000 4 KiB pages per run, far more than the
// TLB holds, and huge pages cut its CPU time by ~8% (docs/decisions.md). Where madvise fails
// or THP is off, the block is still a valid aligned block.
#pragma once

#include <xnnpack.h>

#include <cstddef>

namespace ember::backends::xnnpack {

// Blocks at least this large (and multiples of it) are huge-page candidates.
inline constexpr size_t kHugePageBytes = size_t{2} << 20;

// The allocator (a static object; XNNPACK keeps the pointer).
const xnn_allocator* xnn_allocator_with_huge_pages();

}  // namespace ember::backends::xnnpack
