// Dynamically quantized linear layers (the portable-8da8w / portable-8da4w recipes): activations
// quantized per row to int8 at run time, weights quantized at lowering.
//
//   activations: q[r][c] = nearbyint(x[r][c] * 127 / amax_r) in [-127, 127], scale_r = amax_r / 127
//                (amax_r = max |x[r][:]|; an all-zero row has scale 1 and q = 0)
//   int8 weights (8da8w): w int8 [n][k], one float scale per output channel
//       out[r][j] = scale_r * wscale[j] * sum_c q[r][c] * w[j][c] + bias[j]
//   4-bit weights (8da4w): symmetric values v in [-8, 7], stored as v + 8 in nibbles, k / 2 bytes
//       per output channel; each run of 32 input channels is 16 bytes, byte i holding channel i
//       in its low nibble and channel i + 16 in its high nibble (so a run unpacks to 32 values in
//       order with one mask and one shift; llama.cpp's q4_0 layout). One float scale per block of
//       `block` input channels (32, 64 or 128): wscale [n][k / block].
//       out[r][j] = scale_r * sum_b wscale[j][b] * sum_{c in b} q[r][c] * v[j][c] + bias[j]
// The integer dot products are exact; only the float scaling differs between paths (the order
// of the per-block float sums), so every path agrees with the scalar reference to a few ulps of
// the row's magnitude. Paths: AVX-512 VNNI (vpdpbusd on 256-bit vectors), AVX2 (vpmaddubsw),
// aarch64 NEON dot product (sdot), picked once after a run-time CPU check; a scalar reference
// otherwise (and in size builds).
#pragma once

#include <cstdint>

#include "runtime/core/thread_pool.h"

namespace ember::kernels::portable {

// Quantizes `m` rows of `k` floats (row stride ldx) into q [m][k] and scales [m]; when
// chunk_sums is not null, also sum_{c in chunk} q for each run of 32 columns ([m][k / 32],
// k a multiple of 32), which the 4-bit paths use.
void quantize_rows_int8(const float* x, int64_t m, int64_t k, int64_t ldx, int8_t* q,
                        float* scales, int32_t* chunk_sums);

struct QLinearArgs {
  int64_t m = 0, k = 0, n = 0;
  const int8_t* a = nullptr;           // [m][k], from quantize_rows_int8
  const float* a_scales = nullptr;     // [m]
  const int32_t* a_chunk_sums = nullptr;  // [m][k / 32] (4-bit only)
  const void* w = nullptr;             // int8 [n][k] or packed 4-bit [n][k / 2]
  const float* w_scales = nullptr;     // [n] or [n][k / block]
  int64_t block = 0;                   // 0: int8 per channel; 32 / 64 / 128: 4-bit per block
  const float* bias = nullptr;         // [n] or null
  float* out = nullptr;                // [m][n]
};

// The kernel of one range of output channels [n0, n1) for every row.
using QLinearFn = void (*)(const QLinearArgs& args, int64_t n0, int64_t n1);

// Runs `args` on the best path for this CPU, output channels split over the pool.
void qlinear(const QLinearArgs& args, runtime::ThreadPool* pool);

// The paths, for tests: scalar always; the others null when not built or not supported here.
QLinearFn qlinear_scalar();
QLinearFn qlinear_avx2();
QLinearFn qlinear_avx512vnni();
QLinearFn qlinear_neon_dot();
// The path qlinear() takes: "avx512vnni", "avx2", "neon-dot" or "scalar".
const char* qlinear_path();

}  // namespace ember::kernels::portable
