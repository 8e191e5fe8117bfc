// WinogradConv: the transforms of a Winograd F(m x m, 3x3) convolution (m = 2 or 4), stride 1,
// NHWC f32, for a stride-1 3x3 convolution whose filter is used on many pixels.
//
// A 3x3 convolution of an m x m output tile reads an n x n input patch (n = m + 2). Winograd's
// algorithm computes it as Y = A^T [ (G g G^T) .* (B^T d B) ] A per channel pair: the filter
// transform U = G g G^T (n x n per input/output channel pair, once per delegate), the input
// transform V = B^T d B (n x n per tile and input channel), n² independent GEMMs
// M[k] = V[k] (tiles x CI) x U[k] (CI x CO), and the output transform (m x m per tile and
// output channel). It does n² CI CO multiply-adds per m² outputs instead of 9 m² CI CO:
// 2.25x fewer for F(2,3), 4x fewer for F(4,3), at the cost of n²/9 x the filter's bytes and a
// different rounding (errors against the direct form ~1e-6 of the output's magnitude for
// F(2,3), ~1e-5 for F(4,3)). The GEMMs are XNNPACK's (a caller's batch matrix multiply); this
// file holds only the transforms and the rule that picks m.
//
// Layouts: filter [CO][3][3][CI] (XNNPACK's OHWI); transformed filter [n²][CI][CO]; input
// [H][W][CI]; transformed input of tiles t0 .. t0 + count - 1 (row-major over the output's
// tile grid, ceil(OH / m) x ceil(OW / m)) [n²][count][CI]; GEMM output [n²][count][CO];
// output [OH][OW] with `output_stride` floats per pixel (CO, or more when writing into a
// concatenation). Tiles past the grid are zeros in V and written nowhere.
//
// The input and output transforms run 16 channels at a time with AVX-512F and exist only on
// x86-64 CPUs that have it (winograd_available()); elsewhere the delegate keeps its other forms
// (the same transforms with 8-wide or 4-wide vectors spill and measured no gain, see
// benchmarks/README.md, "Winograd prototype").
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::backends::xnnpack {

// True when this CPU runs the transforms (x86-64 with AVX-512F, per cpuinfo).
bool winograd_available();

// Output tile size m (4, 2) for a 3x3 stride-1 convolution of `ci` -> `co` channels with an
// `out_h` x `out_w` output, or 0 when the direct form should stay: needs co >= `nr` (XNNPACK's
// GEMM tile width; narrower layers are paired convolutions), ci and co multiples of 16,
// for F(4,3) its transformed filter (36 ci co floats), for F(2,3) the direct filter (9 ci co
// floats) within 3/4 of `l2` bytes, tiles covering at least
// 3/4 real output pixels and at least `min_tiles` tiles (each tile block's GEMM reads the whole
// transformed filter: with few tiles it is bound by those bytes); F(4,3) when it qualifies,
// else F(2,3).
uint32_t winograd_tile(uint32_t ci, uint32_t co, uint32_t out_h, uint32_t out_w, uint32_t nr,
                       uint64_t l2, uint64_t min_tiles = 1);

// Tiles of an out_h x out_w output with tile size m.
inline uint64_t winograd_tiles(uint32_t m, uint32_t out_h, uint32_t out_w) {
  return uint64_t{(out_h + m - 1) / m} * ((out_w + m - 1) / m);
}

// U = G g G^T for every (ci, co) pair, computed in double: `out` holds (m + 2)² ci co floats.
void winograd_transform_filter(uint32_t m, const float* filter, uint32_t ci, uint32_t co,
                               float* out);

// V of tiles t0 .. t0 + count - 1 of an h x w x ci input with padding `pad` (0 or 1) on every
// side (output (h + 2 pad - 2) x (w + 2 pad - 2)); ci a multiple of 16. Requires
// winograd_available().
void winograd_input_transform(uint32_t m, const float* x, uint32_t h, uint32_t w, uint32_t ci,
                              uint32_t pad, uint64_t t0, uint32_t count, float* v);

// Y of the same tiles from the GEMM output `mo` ([n²][count][co], co a multiple of 16), plus
// `bias` (co floats, may be null), clamped to [lo, hi], into y[out_h][out_w] with
// `output_stride` floats per pixel. Requires winograd_available().
void winograd_output_transform(uint32_t m, const float* mo, const float* bias, float lo, float hi,
                               uint32_t out_h, uint32_t out_w, uint32_t co, size_t output_stride,
                               uint64_t t0, uint32_t count, float* y);

// The same transforms for tiles t0 + k_begin .. t0 + k_end - 1 only, of a block of `count` tiles
// laid out as above (so threads can share one block: each writes only its tiles' rows).
void winograd_input_transform_range(uint32_t m, const float* x, uint32_t h, uint32_t w,
                                    uint32_t ci, uint32_t pad, uint64_t t0, uint32_t count,
                                    uint32_t k_begin, uint32_t k_end, float* v);
void winograd_output_transform_range(uint32_t m, const float* mo, const float* bias, float lo,
                                     float hi, uint32_t out_h, uint32_t out_w, uint32_t co,
                                     size_t output_stride, uint64_t t0, uint32_t count,
                                     uint32_t k_begin, uint32_t k_end, float* y);

}  // namespace ember::backends::xnnpack
