// Vectorised float32 exp and the row functions built on it (softmax rows, sigmoid, silu,
// gelu), for contiguous float arrays. One algorithm, written once with vector extensions
// (util/vec_math_impl.inc) and compiled for 16-byte vectors (SSE2 / NEON, the portable
// build), for AVX2 (eight lanes; util/vec_math_avx2.cc, picked after a CPU check) and for
// aarch64 NEON (util/vec_math_neon.cc); util/vec_math.cc is the one place that chooses. No build fuses a multiply and an add
// (docs/decisions.md 61), so every ISA and the scalar form give the same bits.
//
// exp(x): Cody-Waite reduction x = n ln2 + r (|r| <= ln2/2, ln2 split into a 9-bit head and
// a tail so n * head is exact), a degree-6 polynomial for exp(r), and 2^n applied as two
// exact power-of-two factors, so results in the subnormal range round once. Measured
// against std::exp over every float in [-104, 89] and special values (vec_math_test.cc):
// at most 2 ulp (relative error < 2.4e-7) for normal results; subnormal results within
// 1 ulp of the subnormal grid; exp(+inf) = +inf, exp(-inf) = 0, exp(NaN) = NaN,
// x > 88.7228317 gives +inf and x < -103.98 gives 0, like std::exp.
#pragma once

#include <cstdint>

namespace ember::kernels::portable {

// The row functions of one instruction set. In-place use (x == y) is allowed.
struct VecMath {
  const char* isa;  // "avx2", "neon" or "portable"
  // y[i] = exp(x[i]).
  void (*exp)(const float* x, float* y, int64_t n);
  // y[i] = exp(x[i] - shift); returns the sum of the y[i] (for softmax).
  float (*exp_shift_sum)(const float* x, float shift, float* y, int64_t n);
  // y[i] = 1 / (1 + exp(-x[i])).
  void (*sigmoid)(const float* x, float* y, int64_t n);
  // y[i] = x[i] / (1 + exp(-x[i])).
  void (*silu)(const float* x, float* y, int64_t n);
  // y[i] = (x[i] + x[i] erf(x[i] / sqrt(2))) / 2, erf as PyTorch's vectorised CPU kernels
  // compute it (Abramowitz-Stegun 7.1.26 with exp; |error| < 1.5e-7), infinities give NaN.
  void (*gelu_erf)(const float* x, float* y, int64_t n);
  // y[i] = x[i] * min(max(x[i] + 3, 0), 6) / 6.
  void (*hardswish)(const float* x, float* y, int64_t n);
  // y[i] = min(max(x[i] + 3, 0), 6) / 6.
  void (*hardsigmoid)(const float* x, float* y, int64_t n);
  // y[i] = x[i] * scale (softmax's normalisation).
  void (*scale)(const float* x, float scale, float* y, int64_t n);
  // Mean and biased variance of x[0 .. n), two passes (sum, then sum of squared deviations)
  // in float lanes; NaN for n == 0.
  void (*moments)(const float* x, int64_t n, float* mean, float* var);
  // y[i] = (x[i] - mean) * rstd * w[i] + b[i]; w and b may be null (1 and 0).
  void (*normalize)(const float* x, float mean, float rstd, const float* w, const float* b,
                    float* y, int64_t n);
};

// The best build for this CPU (chosen once).
const VecMath& vec_math();
// The 16-byte-vector build (every CPU).
const VecMath& vec_math_portable();
// The AVX2 build, or nullptr when this build or CPU has none.
const VecMath* vec_math_avx2();
// The aarch64 NEON build (util/vec_math_neon.cc: counted calls), or nullptr on other
// targets.
const VecMath* vec_math_neon();

// exp of one float, same bits as vec_math().exp.
float exp_f32(float x);

}  // namespace ember::kernels::portable
