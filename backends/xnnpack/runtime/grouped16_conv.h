// Grouped16Conv: an f32 NHWC grouped convolution whose groups have 16 input and 16 output
// channels (RegNetX's group width), computed 16 output channels per vector.
//
// XNNPACK 2024-11 packs every f32 convolution for its one AVX-512F GEMM tile, 32 output
// channels wide, so a group of 16 output channels is padded to 32: RegNetX-400MF reads 7.05 MB
// of packed grouped filters per run for 3.53 MB of real ones, and on its 4x4 and 2x2 maps the
// 7-row tiles are a quarter used (benchmarks/README.md, "Helper figures, session 14
// (`s14-convs`)"). Here one group's 16 outputs of one pixel are one 16-float vector: for every
// tap and input channel c, out[p] += in[p + tap][c] (broadcast) x filter[tap][c][0..15], so the
// filter is read once per group, exactly its own bytes, and every multiply-add is used. Groups
// are outermost, so a group's filter (kh kw 256 floats) stays in L1 across its pixels.
//
// The delegate runs it as a stage between XNNPACK subgraph stages (grouped16_stage.h).
//
// Layouts: filter [G 16][kh][kw][16] (XNNPACK's OHWI with 16 input channels per group), packed
// to [G][kh][kw][16 in][16 out]; input [N][H][W][G 16]; output [N][OH][OW][G 16]; bias [G 16]
// or null. Dilation 1; padding zeros; output clamped to [out_min, out_max].
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::backends::xnnpack {

struct Grouped16ConvShape {
  uint32_t batch = 1;
  uint32_t in_h = 0, in_w = 0;
  uint32_t groups = 0;  // channels = 16 x groups, in and out
  uint32_t kernel_h = 0, kernel_w = 0;
  uint32_t stride_h = 1, stride_w = 1;
  uint32_t pad_top = 0, pad_left = 0;
  uint32_t out_h = 0, out_w = 0;
};

// Floats of the packed filter: groups x kernel_h x kernel_w x 256.
size_t grouped16_packed_floats(uint32_t groups, uint32_t kernel_h, uint32_t kernel_w);

// [G 16][kh][kw][16] -> [G][kh][kw][16 in][16 out].
void pack_grouped16_filter(const float* filter, uint32_t groups, uint32_t kernel_h,
                           uint32_t kernel_w, float* packed);

// True when grouped16_conv runs its AVX-512F form on this CPU (x86-64, cpuinfo) for kernels
// of up to 25 taps; else it runs a portable loop with the same summation order per output.
bool grouped16_vectorized();

// output = clamp(conv(input, filter) + bias). `portable` forces the portable loop (tests).
void grouped16_conv(const Grouped16ConvShape& shape, const float* input, const float* packed,
                    const float* bias, float out_min, float out_max, float* output,
                    bool portable = false);

}  // namespace ember::backends::xnnpack
