// PairedConv: a stride-1 2-D convolution with few output channels, run by XNNPACK on pairs of
// horizontally adjacent pixels so that its GEMM tile is not half empty.
//
// XNNPACK computes an f32 convolution with one GEMM micro-kernel per CPU, whose tile is nr output
// channels wide (XNNPACK 2024-11: 32 on x86-64 with AVX-512F, 16 with AVX/FMA3, 8 on SSE and
// Arm). A convolution of 16 output channels on AVX-512 fills half of every tile: half of its
// multiply-adds are thrown away. In NHWC, viewing [N, H, W, C] as [N, H, W/2, 2C] is free (same
// bytes), and a kh x kw convolution of the original pixels is a kh x (kw/2 + 1) convolution of
// the pairs with 2 x CO outputs (pair j holds output pixels 2j - s and 2j - s + 1, s = pad_left
// mod 2). Its filter holds the original taps and zeros where a tap falls outside the original
// kernel; for a 3x3 kernel it does 2/3 of the original's tile work (kw' x roundup(2 CO, nr)
// against kw x roundup(CO, nr) per pixel pair), plus a copy of the input into the reshape and a
// slice of the output (the pair grid may hold one pixel more on each side). The arithmetic of
// every real output is the original's: same taps, same order, the extra taps add exact zeros.
//
// prepare_paired_convs() builds the paired filter and bias once per executor (stable pointers:
// they are the packed-weights cache keys) for every node where the CPU's tile makes it pay;
// define_paired_conv() uses them when the plan's input width is even.
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/graph_model.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

// Output channels per tile of the f32 GEMM micro-kernel this XNNPACK picks on this CPU.
uint32_t f32_gemm_tile_width();

// Pair geometry of a convolution: kernel width, left padding and whether the pairing pays
// with tile width `nr` (the paired form's tile work at most 4/5 of the original's).
struct PairedGeometry {
  uint32_t kernel_width = 0;  // kw / 2 + 1
  bool pays = false;
};
PairedGeometry paired_geometry(uint32_t kernel_width, uint32_t output_channels, uint32_t nr);

// Paired filter [2 CO][kh][kw'][2 C] from an OHWI filter [CO][kh][kw][C].
void pair_filter(const float* filter, uint32_t output_channels, uint32_t kernel_height,
                 uint32_t kernel_width, uint32_t input_channels, float* paired);

// Fills NodeDesc::paired_filter / paired_bias (from `allocator`) of every f32 convolution the
// pairing pays for on this CPU (groups 1, horizontal stride and dilation 1, static f32 filter
// and bias); a node whose copy does not fit in the allocator stays plain.
runtime::Error prepare_paired_convs(GraphModel* model, runtime::MemoryAllocator* allocator);

// Defines node `index` in its paired form when it has paired weights and the plan's input
// width is even; *used says whether it did (else the caller defines the plain convolution).
runtime::Error define_paired_conv(const DefineContext& ctx, uint32_t index, bool* used);

}  // namespace ember::backends::xnnpack
