// BlockedConv: a convolution whose packed filter is larger than the CPU's L2 cache, run by
// XNNPACK as a grouped convolution over copies of its input, so that each block of output
// channels is finished before the next block's weights are read.
//
// At one thread XNNPACK 2024-11 walks a convolution's GEMM row tile by row tile (mr output
// pixels, 7 on AVX-512F), each tile over every output channel: a filter larger than L2 is read
// from L3 or memory once per row tile. ResNet-18's 3x3 512 -> 512 layers (9.4 MB of weights,
// 16 output pixels at 112x112, three row tiles) ran at 50 GMAC/s against 130 GMAC/s for its
// layers whose weights stay in L2. A grouped convolution is walked group by group, and its
// filter layout [G][CO/G][kh][kw][C] is the plain filter's [CO][kh][kw][C] with CO = G x CO/G:
// so conv(x, W) = grouped_conv([x, x, ..., x], W, groups = G) with the same filter and bias
// bytes, where [x, ..., x] is x repeated G times along channels (one broadcast add of zeros,
// [N,H,W,1,C] + [G,C] -> [N,H,W,G,C], free to view as [N,H,W,G C]). Each output sums the same
// products in the same order; only the input copy is added (G x the input's bytes, bounded to
// a fraction of the filter's).
//
// prepare_blocked_convs() picks G once per executor from the filter alone (so every plan of a
// node packs the same weights) and allocates the zeros; define_blocked_conv() uses it when the
// plan has more output pixels than one row tile holds.
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/graph_model.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

// Bytes of this CPU's per-core L2 cache (cpuinfo), 0 when unknown.
uint64_t l2_cache_bytes();

// Groups for a groups-1 convolution with `output_channels` outputs whose packed filter takes
// `filter_bytes`, with GEMM tile width `nr` and L2 size `l2`: 1 when the filter fits in L2 (or
// l2 is 0), else the fewest groups G (G divides CO; G x roundup(CO / G, nr) = roundup(CO, nr),
// so no tile work is added) whose block fits in 3/4 of L2, or the most such groups when none
// fits. XNNPACK's packed-weights cache key for
// the grouped form ({groups ^ CO/G ^ ...}) must differ from the plain form's, else 1.
uint32_t conv_blocks(uint64_t filter_bytes, uint32_t output_channels, uint32_t nr, uint64_t l2);

// Sets NodeDesc::conv_blocks / block_zeros (from `allocator`) of every f32 convolution with
// groups 1, static filter (and bias) whose filter makes blocking pay on this CPU; a node whose
// zeros do not fit in the allocator stays plain.
runtime::Error prepare_blocked_convs(GraphModel* model, runtime::MemoryAllocator* allocator);

// Defines node `index` in its blocked form when it has blocks, the plan has more than 8 output
// pixels and the input copies stay under half the filter's bytes; *used says whether it did.
runtime::Error define_blocked_conv(const DefineContext& ctx, uint32_t index, bool* used);

}  // namespace ember::backends::xnnpack
