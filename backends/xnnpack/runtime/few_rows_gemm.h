// FewRowsGemm: an f32 GEMM with few rows, y[M x N] = clamp(x[M x K] w[K x N] + bias), M <= 12,
// in one pass over w: a 1x1 convolution or linear layer on 9-16 pixels (SqueezeNet's classifier
// on its 3x3 map, GoogLeNet's and RegNetX's 4x4 maps).
//
// XNNPACK 2024-11's AVX-512F f32 GEMM tiles are 7 and 1 rows, so 9 rows take two 7-row passes
// (14 rows of multiply-adds, the filter streamed twice) and 16 rows three; SqueezeNet's
// classifier (9 x 512 -> 1000, 2 MB of filter) ran at ~80 GMAC/s through them where ONNX
// Runtime ran it at ~120 (benchmarks/README.md, "Helper figures, session 14 (`s14-convs`)").
// Here one pass keeps all M rows (up to 12) x 32 columns in 24 AVX-512 registers, reading each
// filter vector once per pass: every multiply-add of the M rows is used.
//
// The delegate runs it as a stage between XNNPACK subgraph stages (few_rows_stage.h).
//
// Layouts: x [M][K] (`x_stride` floats per row); w [N][K] (a 1x1 convolution's OHWI filter, a
// linear layer's weight) packed to [ceil(N / 32)][K][32], columns past N zero; bias [N] or null;
// y [M][N] (`y_stride` floats per row).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::backends::xnnpack {

inline constexpr uint32_t kFewRowsMax = 12;

// Floats of the packed filter: ceil(n / 32) x 32 x k.
size_t few_rows_packed_floats(uint32_t n, uint32_t k);

// [N][K] -> [ceil(N / 32)][K][32].
void pack_few_rows_filter(const float* w, uint32_t n, uint32_t k, float* packed);

// True when few_rows_gemm runs its AVX-512F form on this CPU (x86-64, cpuinfo); else a
// portable loop with the same summation order per output.
bool few_rows_vectorized();

// m in 1..kFewRowsMax. `portable` forces the portable loop (tests).
void few_rows_gemm(uint32_t m, uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed,
                   const float* bias, float out_min, float out_max, float* y, size_t y_stride,
                   bool portable = false);

}  // namespace ember::backends::xnnpack
