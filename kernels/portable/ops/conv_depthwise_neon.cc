// The aarch64 NEON path of 3x3 depthwise convolution on planes at least 8 outputs wide
// (the shape conv_depthwise.cc otherwise gives its padded-plane loop, which GCC vectorises
// at stride 1 and leaves scalar at stride 2): four adjacent outputs per step, each tap one
// load of four inputs: unaligned loads at stride 1, de-interleaving loads (ld2: even and odd
// columns) at stride 2. Multiplies and adds are separate instructions in the loop's order
// (bias, then per kernel row w0 x0 + w1 x1 + w2 x2 added to the sum), so the result is the
// portable loop's, bit for bit. Counted as NeonPath::Depthwise3x3. Other targets: false.
#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/neon_paths.h"

#if defined(__aarch64__) && defined(__ARM_NEON)
#include <arm_neon.h>
#endif

namespace ember::kernels::portable {

#if defined(__aarch64__) && defined(__ARM_NEON)
namespace {

constexpr int64_t kSlack = 16;             // stride 2 reads up to 2 floats past a row

inline float tap_row(const float* r, int64_t x, float w0, float w1, float w2) {
  return w0 * r[x] + w1 * r[x + 1] + w2 * r[x + 2];
}

template <int S>
inline float32x4x3_t load_taps(const float* r, int64_t ox) {
  float32x4x3_t t;
  if (S == 1) {
    t.val[0] = vld1q_f32(r + ox);
    t.val[1] = vld1q_f32(r + ox + 1);
    t.val[2] = vld1q_f32(r + ox + 2);
  } else {
    const float32x4x2_t a = vld2q_f32(r + 2 * ox);      // columns 2ox, 2ox+1, ... 2ox+7
    const float32x4x2_t b = vld2q_f32(r + 2 * ox + 2);  // the even ones from 2ox+2
    t.val[0] = a.val[0];
    t.val[1] = a.val[1];
    t.val[2] = b.val[0];
  }
  return t;
}

inline float32x4_t row_sum(float32x4x3_t t, float32x4_t w0, float32x4_t w1, float32x4_t w2) {
  return vaddq_f32(vaddq_f32(vmulq_f32(w0, t.val[0]), vmulq_f32(w1, t.val[1])),
                   vmulq_f32(w2, t.val[2]));
}

template <int S>
void plane(const float* pad, int64_t pw, const float* w, float b, int64_t oh, int64_t ow,
           int64_t sy, float* out, int64_t os_row) {
  const float32x4_t w0 = vdupq_n_f32(w[0]), w1 = vdupq_n_f32(w[1]), w2 = vdupq_n_f32(w[2]);
  const float32x4_t w3 = vdupq_n_f32(w[3]), w4 = vdupq_n_f32(w[4]), w5 = vdupq_n_f32(w[5]);
  const float32x4_t w6 = vdupq_n_f32(w[6]), w7 = vdupq_n_f32(w[7]), w8 = vdupq_n_f32(w[8]);
  const float32x4_t bv = vdupq_n_f32(b);
  const int64_t ow4 = ow / 4 * 4;
  for (int64_t oy = 0; oy < oh; ++oy) {
    const float* r0 = pad + oy * sy * pw;
    const float* r1 = r0 + pw;
    const float* r2 = r1 + pw;
    float* o = out + oy * os_row;
    int64_t ox = 0;
    for (; ox < ow4; ox += 4) {
      float32x4_t acc = vaddq_f32(bv, row_sum(load_taps<S>(r0, ox), w0, w1, w2));
      acc = vaddq_f32(acc, row_sum(load_taps<S>(r1, ox), w3, w4, w5));
      acc = vaddq_f32(acc, row_sum(load_taps<S>(r2, ox), w6, w7, w8));
      vst1q_f32(o + ox, acc);
    }
    for (; ox < ow; ++ox) {
      const int64_t x = ox * S;
      float acc = b;
      acc += tap_row(r0, x, w[0], w[1], w[2]);
      acc += tap_row(r1, x, w[3], w[4], w[5]);
      acc += tap_row(r2, x, w[6], w[7], w[8]);
      o[ox] = acc;
    }
  }
}

}  // namespace

bool depthwise_3x3_neon(const ConvGeometry& g, const float* in, const float* weight,
                        const float* bias, float* out) {
  // The caller checked the 3x3 shape (unit dilation, unit inner strides, plane fits
  // kDepthwiseMaxPadded); this path takes column strides 1 and 2 with unit output column stride.
  if ((g.sx != 1 && g.sx != 2) || g.os[3] != 1) return false;
  alignas(64) float pad[kDepthwiseMaxPadded + kSlack];
  const int64_t ph = g.h + 2 * g.py, pw = g.w + 2 * g.px;
  for (int64_t q = 0; q < ph * pw + kSlack; ++q) pad[q] = 0.0f;  // borders stay zero
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c_out; ++c) {
      copy_into_padded_plane(g, in, n, c, pw, pad);
      const float* w9 = weight + c * g.ws[0];
      const float b = bias != nullptr ? bias[c] : 0.0f;
      float* po = out + n * g.os[0] + c * g.os[1];
      if (g.sx == 1) {
        plane<1>(pad, pw, w9, b, g.oh, g.ow, g.sy, po, g.os[2]);
      } else {
        plane<2>(pad, pw, w9, b, g.oh, g.ow, g.sy, po, g.os[2]);
      }
    }
  }
  count_neon_path(NeonPath::Depthwise3x3);
  return true;
}
#else
bool depthwise_3x3_neon(const ConvGeometry&, const float*, const float*, const float*, float*) {
  return false;
}
#endif

}  // namespace ember::kernels::portable
