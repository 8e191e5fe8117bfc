// float32 depthwise convolution (declared in conv_geometry.h).
//
// Square 3x3, 5x5 and 7x7 kernels without dilation run the fast paths of
// conv_depthwise_impl.inc (a row-vectorised path over a zero-padded, phase-split plane per
// channel, and a channel-vectorised path for narrow planes), in the AVX2 build when the CPU
// has it, else the 16-byte build (NEON code on aarch64); 3x3 kernels on planes at least 8
// outputs wide take a padded-plane loop instead, on aarch64 its NEON build
// (conv_depthwise_neon.cc) at column strides 1 and 2. This file is the one place that picks. Every other
// depthwise conv (dilated, non-square, or planes too large for the stack buffers) runs the
// general row loop below.
#include "kernels/portable/ops/conv_geometry.h"

namespace ember::kernels::portable {

namespace depthwise_portable_impl {
constexpr int kVecBytes = 16;
#include "kernels/portable/ops/conv_depthwise_impl.inc"
}  // namespace depthwise_portable_impl

namespace {

// 3x3 planes at least 8 outputs wide keep the loop over a zero-padded plane they had
// before the vectorised paths (AVX2 build at stride 1, scalar at stride 2): measured
// faster than the rows path of conv_depthwise_impl.inc on this AMD core
// (benchmarks/README.md, portable_vector_benchmark). Narrower 3x3 planes and 5x5/7x7
// kernels take the vectorised paths.

// The output rows of one channel from its padded plane (row length pw).
template <int64_t S>
inline __attribute__((always_inline)) void dw3x3_plane(const float* pad, int64_t pw, const float* w, float b, int64_t oh, int64_t ow,
                 int64_t sy, int64_t sx_rt, float* out, int64_t os_row) {
  const int64_t sx = S > 0 ? S : sx_rt;
  const float w0 = w[0], w1 = w[1], w2 = w[2], w3 = w[3], w4 = w[4], w5 = w[5], w6 = w[6],
              w7 = w[7], w8 = w[8];
  for (int64_t oy = 0; oy < oh; ++oy) {
    const float* r0 = pad + oy * sy * pw;
    const float* r1 = r0 + pw;
    const float* r2 = r1 + pw;
    float* o = out + oy * os_row;
    for (int64_t ox = 0; ox < ow; ++ox) {
      const int64_t x = ox * sx;
      float acc = b;
      acc += w0 * r0[x] + w1 * r0[x + 1] + w2 * r0[x + 2];
      acc += w3 * r1[x] + w4 * r1[x + 1] + w5 * r1[x + 2];
      acc += w6 * r2[x] + w7 * r2[x + 1] + w8 * r2[x + 2];
      o[ox] = acc;
    }
  }
}

// Whether the 3x3 fast path applies (unit inner strides, padded plane fits).
bool dw3x3_applies(const ConvGeometry& g) {
  return g.kh == 3 && g.kw == 3 && g.dy == 1 && g.dx == 1 && g.is[3] == 1 && g.os[3] == 1 &&
         g.ws[3] == 1 && g.ws[2] == 3 && (g.h + 2 * g.py) * (g.w + 2 * g.px) <= kDepthwiseMaxPadded;
}

inline __attribute__((always_inline)) void dw3x3_body(const ConvGeometry& g, const float* in,
                                                      const float* weight, const float* bias,
                                                      float* out) {
  alignas(64) float pad[kDepthwiseMaxPadded];
  const int64_t ph = g.h + 2 * g.py, pw = g.w + 2 * g.px;
  for (int64_t q = 0; q < ph * pw; ++q) pad[q] = 0.0f;  // borders stay zero
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c_out; ++c) {
      copy_into_padded_plane(g, in, n, c, pw, pad);
      const float* pw9 = weight + c * g.ws[0];
      const float b = bias != nullptr ? bias[c] : 0.0f;
      float* po = out + n * g.os[0] + c * g.os[1];
      if (g.sx == 1) {
        dw3x3_plane<1>(pad, pw, pw9, b, g.oh, g.ow, g.sy, 1, po, g.os[2]);
      } else if (g.sx == 2) {
        dw3x3_plane<2>(pad, pw, pw9, b, g.oh, g.ow, g.sy, 2, po, g.os[2]);
      } else {
        dw3x3_plane<0>(pad, pw, pw9, b, g.oh, g.ow, g.sy, g.sx, po, g.os[2]);
      }
    }
  }
}


#if defined(__x86_64__)
__attribute__((target("avx2"))) void dw3x3_avx2(const ConvGeometry& g, const float* in,
                                                const float* weight, const float* bias,
                                                float* out) {
  dw3x3_body(g, in, weight, bias, out);
}
#endif

DepthwiseFastFn best_depthwise_fast() {
  static const DepthwiseFastFn best = [] {
    const DepthwiseFastFn avx2 = depthwise_fast_avx2();
    return avx2 != nullptr ? avx2 : &depthwise_portable_impl::depthwise_fast;
  }();
  return best;
}

}  // namespace

void conv_depthwise_f32(const ConvGeometry& g, const float* in, const float* weight,
                        const float* bias, float* out) {
  if (!kOneConvPath && g.ow >= 8 && dw3x3_applies(g)) {
#if defined(__x86_64__)
    static const bool avx2 = __builtin_cpu_supports("avx2");
    if (avx2 && g.sx == 1) return dw3x3_avx2(g, in, weight, bias, out);
#endif
#if defined(__aarch64__)
    if (depthwise_3x3_neon(g, in, weight, bias, out)) return;  // column stride 1 or 2
#endif
    return dw3x3_body(g, in, weight, bias, out);
  }
  if (!kOneConvPath && best_depthwise_fast()(g, in, weight, bias, out)) return;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t c = 0; c < g.c_out; ++c) {
      const float* pi = in + n * g.is[0] + c * g.is[1];
      const float* pw = weight + c * g.ws[0];
      float* po = out + n * g.os[0] + c * g.os[1];
      const float b = bias != nullptr ? bias[c] : 0.0f;
      for (int64_t oy = 0; oy < g.oh; ++oy) {
        float* row = po + oy * g.os[2];
        const int64_t osx = g.os[3];
        for (int64_t ox = 0; ox < g.ow; ++ox) row[ox * osx] = b;
        for (int64_t ky = 0; ky < g.kh; ++ky) {
          const int64_t iy = oy * g.sy - g.py + ky * g.dy;
          if (iy < 0 || iy >= g.h) continue;
          const float* irow = pi + iy * g.is[2];
          for (int64_t kx = 0; kx < g.kw; ++kx) {
            const float wv = pw[ky * g.ws[2] + kx * g.ws[3]];
            const int64_t off = kx * g.dx - g.px;
            // ox range with 0 <= ox * sx + off < w.
            int64_t lo = off >= 0 ? 0 : (-off + g.sx - 1) / g.sx;
            int64_t hi = (g.w - off + g.sx - 1) / g.sx;
            if (hi > g.ow) hi = g.ow;
            if (osx == 1 && g.is[3] == 1 && g.sx == 1) {
              const float* src = irow + off;
              for (int64_t ox = lo; ox < hi; ++ox) row[ox] += wv * src[ox];
            } else {
              for (int64_t ox = lo; ox < hi; ++ox) {
                row[ox * osx] += wv * irow[(ox * g.sx + off) * g.is[3]];
              }
            }
          }
        }
      }
    }
  }
}

}  // namespace ember::kernels::portable
