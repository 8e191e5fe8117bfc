// The aarch64 NEON dot-product path of the dynamically quantized linear (qlinear.h): sdot
// (vdotq_s32, signed x signed int8 in fours), compiled with -march=armv8.2-a+dotprod on aarch64
// (BUILD.bazel) and used only when the CPU reports the dot-product extension (HWCAP_ASIMDDP).
// 4-bit weights are unpacked to v in [-8, 7] (mask, shift, subtract 8) before the dot.
#include "kernels/portable/util/qlinear.h"

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
#include <arm_neon.h>
#include <sys/auxv.h>
#ifndef HWCAP_ASIMDDP
#define HWCAP_ASIMDDP (1 << 20)
#endif
#endif

namespace ember::kernels::portable {

#if defined(__aarch64__) && defined(__ARM_FEATURE_DOTPROD)
namespace {

template <int NJ>
void int8_channels(const QLinearArgs& a, int64_t r, int64_t j) {
  const int8_t* q = a.a + r * a.k;
  const int8_t* w[NJ];
  int32x4_t acc[NJ];
  for (int t = 0; t < NJ; ++t) {
    w[t] = static_cast<const int8_t*>(a.w) + (j + t) * a.k;
    acc[t] = vdupq_n_s32(0);
  }
  int64_t c = 0;
  for (; c + 16 <= a.k; c += 16) {
    const int8x16_t x = vld1q_s8(q + c);
    for (int t = 0; t < NJ; ++t) acc[t] = vdotq_s32(acc[t], x, vld1q_s8(w[t] + c));
  }
  for (int t = 0; t < NJ; ++t) {
    int32_t s = vaddvq_s32(acc[t]);
    for (int64_t cc = c; cc < a.k; ++cc) s += int32_t(q[cc]) * int32_t(w[t][cc]);
    a.out[r * a.n + j + t] =
        a.a_scales[r] * (a.w_scales[j + t] * float(s)) + (a.bias ? a.bias[j + t] : 0.f);
  }
}

template <int NJ>
void int4_channels(const QLinearArgs& a, int64_t r, int64_t j) {
  const int8_t* q = a.a + r * a.k;
  const int64_t blocks = a.k / a.block, chunks = a.block / 32;
  const uint8_t* w[NJ];
  const float* ws[NJ];
  float32x4_t accf[NJ];
  for (int t = 0; t < NJ; ++t) {
    w[t] = static_cast<const uint8_t*>(a.w) + (j + t) * (a.k / 2);
    ws[t] = a.w_scales + (j + t) * blocks;
    accf[t] = vdupq_n_f32(0.f);
  }
  const uint8x16_t low4 = vdupq_n_u8(0x0f);
  const int8x16_t eight = vdupq_n_s8(8);
  for (int64_t b = 0; b < blocks; ++b) {
    int32x4_t acc[NJ];
    for (int t = 0; t < NJ; ++t) acc[t] = vdupq_n_s32(0);
    for (int64_t ch = b * chunks; ch < (b + 1) * chunks; ++ch) {
      const int8x16_t x0 = vld1q_s8(q + ch * 32), x1 = vld1q_s8(q + ch * 32 + 16);
      for (int t = 0; t < NJ; ++t) {
        const uint8x16_t bytes = vld1q_u8(w[t] + ch * 16);
        const int8x16_t lo = vsubq_s8(vreinterpretq_s8_u8(vandq_u8(bytes, low4)), eight);
        const int8x16_t hi = vsubq_s8(vreinterpretq_s8_u8(vshrq_n_u8(bytes, 4)), eight);
        acc[t] = vdotq_s32(vdotq_s32(acc[t], lo, x0), hi, x1);
      }
    }
    for (int t = 0; t < NJ; ++t) accf[t] = vfmaq_n_f32(accf[t], vcvtq_f32_s32(acc[t]), ws[t][b]);
  }
  for (int t = 0; t < NJ; ++t) {
    a.out[r * a.n + j + t] =
        a.a_scales[r] * vaddvq_f32(accf[t]) + (a.bias ? a.bias[j + t] : 0.f);
  }
}

// Channels outer, rows inner: four channels' weights stay in L1 while every row (a prefill's
// tokens) passes over them, so the weights are read from memory once per call.
void run(const QLinearArgs& a, int64_t n0, int64_t n1) {
  int64_t j = n0;
  if (a.block == 0) {
    for (; j + 4 <= n1; j += 4) {
      for (int64_t r = 0; r < a.m; ++r) int8_channels<4>(a, r, j);
    }
    for (; j < n1; ++j) {
      for (int64_t r = 0; r < a.m; ++r) int8_channels<1>(a, r, j);
    }
  } else {
    for (; j + 4 <= n1; j += 4) {
      for (int64_t r = 0; r < a.m; ++r) int4_channels<4>(a, r, j);
    }
    for (; j < n1; ++j) {
      for (int64_t r = 0; r < a.m; ++r) int4_channels<1>(a, r, j);
    }
  }
}

}  // namespace

QLinearFn qlinear_neon_dot() {
  static const bool ok = (getauxval(AT_HWCAP) & HWCAP_ASIMDDP) != 0;
  return ok ? run : nullptr;
}
#else
QLinearFn qlinear_neon_dot() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
