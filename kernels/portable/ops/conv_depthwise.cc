// float32 depthwise convolution (declared in conv_geometry.h).
//
// Square 3x3, 5x5 and 7x7 kernels without dilation run the fast paths of
// conv_depthwise_impl.inc (a row-vectorised path over a zero-padded, phase-split plane per
// channel, and a channel-vectorised path for narrow planes), in the AVX2 build when the CPU
// has it, else the 16-byte build; this file is the one place that picks. Every other
// depthwise conv (dilated, non-square, or planes too large for the stack buffers) runs the
// general row loop below.
#include "kernels/portable/ops/conv_geometry.h"

namespace ember::kernels::portable {

namespace depthwise_portable_impl {
constexpr int kVecBytes = 16;
#include "kernels/portable/ops/conv_depthwise_impl.inc"
}  // namespace depthwise_portable_impl

namespace {

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
  if (best_depthwise_fast()(g, in, weight, bias, out)) return;
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
