// float32 grouped convolution on small output planes (declared in conv_geometry.h).
// For each group, the output is C[co][j] = W[co][p] x im2col[p][j] with at most kSmallPlane
// output positions j: im2col is built once per group, transposed (column j is one run of k
// floats), and the GEMM takes its few-columns path: one dot product of a weight row, read in
// place, with each run (util/gemm_skinny.inc). The blocked GEMM would instead broadcast every
// weight against a 16-wide register tile of which a 2x2 plane fills 4 to 6 lanes, once per
// group (RegNet's 3x3 convs at group width 16: 25 groups of 16 channels on a 2x2 plane).
#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

namespace {

constexpr int64_t kSmallPlane = 16;  // output positions (gemm_skinny.inc's kSmallN)

}  // namespace

bool conv_small_plane_applies(const ConvGeometry& g) {
  const int64_t cig = g.c_in / g.groups;
  const bool w_rows = (g.kw == 1 || g.ws[3] == 1) && (g.kh == 1 || g.ws[2] == g.kw) &&
                      (cig == 1 || g.ws[1] == g.kh * g.kw);
  const bool nchw_out = g.os[3] == 1 && (g.oh == 1 || g.os[2] == g.ow);
  return !g.transposed && g.groups > 1 && g.oh * g.ow <= kSmallPlane && w_rows && nchw_out;
}

bool conv_small_plane_f32(runtime::KernelRuntimeContext& ctx, const ConvGeometry& g,
                          const float* in, const float* weight, const float* bias, float* out) {
  if (!conv_small_plane_applies(g)) return false;
  const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
  const int64_t khw = g.kh * g.kw, k = cig * khw, spatial = g.oh * g.ow;
  // cols[j * k + p] = im2col[p][j] of the current group, gathered through taps[j * k + p]:
  // the element's offset from the group's first input channel, or -1 for padding (the
  // same for every group and image).
  runtime::Result<void*> cols_mem = ctx.allocate_temp(size_t(spatial * k) * sizeof(float), 64);
  runtime::Result<void*> taps_mem = ctx.allocate_temp(size_t(spatial * k) * sizeof(int64_t), 64);
  if (!cols_mem.ok() || !taps_mem.ok()) return false;
  float* cols = static_cast<float*>(cols_mem.get());
  int64_t* taps = static_cast<int64_t*>(taps_mem.get());
  for (int64_t j = 0; j < spatial; ++j) {
    const int64_t iy0 = (j / g.ow) * g.sy - g.py, ix0 = (j % g.ow) * g.sx - g.px;
    int64_t* t = taps + j * k;
    for (int64_t ci = 0; ci < cig; ++ci) {
      for (int64_t ky = 0; ky < g.kh; ++ky) {
        const int64_t iy = iy0 + ky * g.dy;
        const bool row_in = iy >= 0 && iy < g.h;
        for (int64_t kx = 0; kx < g.kw; ++kx) {
          const int64_t ix = ix0 + kx * g.dx;
          *t++ = row_in && ix >= 0 && ix < g.w ? ci * g.is[1] + iy * g.is[2] + ix * g.is[3] : -1;
        }
      }
    }
  }
  const int64_t count = spatial * k;
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* src = in + n * g.is[0] + grp * cig * g.is[1];
      for (int64_t i = 0; i < count; ++i) {  // a load from src[0] for padding: no branch
        const int64_t t = taps[i];
        const float v = src[t < 0 ? 0 : t];
        cols[i] = t < 0 ? 0.0f : v;
      }
      GemmArgs a;
      a.m = cog;
      a.n = spatial;
      a.k = k;
      a.a = weight + grp * cog * g.ws[0];
      a.a_rs = g.ws[0];
      a.a_cs = 1;
      a.b = cols;
      a.b_rs = 1;
      a.b_cs = k;
      a.c = out + n * g.os[0] + grp * cog * g.os[1];
      a.c_rs = g.os[1];
      a.bias_m = bias != nullptr ? bias + grp * cog : nullptr;
      sgemm(a, ctx.thread_pool());
    }
  }
  return true;
}

}  // namespace ember::kernels::portable
