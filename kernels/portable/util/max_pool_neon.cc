// util/max_pool_neon.h: the NEON max-pool row step.
#include "kernels/portable/util/max_pool_neon.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>

namespace ember::kernels::portable {

namespace {

template <int S>
inline float32x4_t load_cols(const float* src, int64_t t) {
  if (S == 1) return vld1q_f32(src + t);
  return vld2q_f32(src + 2 * t).val[0];  // reads src[2t .. 2t+7], uses the even ones
}

template <int S>
void row(const float* src, int64_t n, int64_t i0, bool first, float* best, int64_t* best_i) {
  // Stride 2 reads one column past the last candidate of a vector: keep one in hand.
  const int64_t vec_end = S == 1 ? n : n - 1;
  const int64x2_t step = vdupq_n_s64(4 * S);
  int64x2_t idx_lo = {i0, i0 + S}, idx_hi = {i0 + 2 * S, i0 + 3 * S};
  int64_t t = 0;
  for (; t + 4 <= vec_end; t += 4) {
    const float32x4_t v = load_cols<S>(src, t);
    if (first) {
      vst1q_f32(best + t, v);
      vst1q_s64(best_i + t, idx_lo);
      vst1q_s64(best_i + t + 2, idx_hi);
    } else {
      const float32x4_t b = vld1q_f32(best + t);
      const uint32x4_t v_nan = vmvnq_u32(vceqq_f32(v, v));
      const uint32x4_t take = vorrq_u32(vcgtq_f32(v, b), vandq_u32(v_nan, vceqq_f32(b, b)));
      vst1q_f32(best + t, vbslq_f32(take, v, b));
      const int32x4_t take_s = vreinterpretq_s32_u32(take);
      const uint64x2_t take_lo = vreinterpretq_u64_s64(vmovl_s32(vget_low_s32(take_s)));
      const uint64x2_t take_hi = vreinterpretq_u64_s64(vmovl_s32(vget_high_s32(take_s)));
      vst1q_s64(best_i + t, vbslq_s64(take_lo, idx_lo, vld1q_s64(best_i + t)));
      vst1q_s64(best_i + t + 2, vbslq_s64(take_hi, idx_hi, vld1q_s64(best_i + t + 2)));
    }
    idx_lo = vaddq_s64(idx_lo, step);
    idx_hi = vaddq_s64(idx_hi, step);
  }
  for (; t < n; ++t) {
    const float v = src[t * S];
    if (first) {
      best[t] = v;
      best_i[t] = i0 + t * S;
      continue;
    }
    const float b = best[t];
    const bool take = v > b || (v != v && b == b);
    best[t] = take ? v : b;
    best_i[t] = take ? i0 + t * S : best_i[t];
  }
}

}  // namespace

bool max_pool_row_neon(const float* src, int64_t sx, int64_t n, int64_t i0, bool first,
                       float* best, int64_t* best_i) {
  if (sx == 1) {
    row<1>(src, n, i0, first, best, best_i);
  } else if (sx == 2) {
    row<2>(src, n, i0, first, best, best_i);
  } else {
    return false;
  }
  return true;
}

}  // namespace ember::kernels::portable
#endif
