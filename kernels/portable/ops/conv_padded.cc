// float32 stride-1 convolution over a zero-padded copy of the input (declared
// in conv_geometry.h). With the padded width wp, output position (oy, ox) is
// column j = oy * wp + ox of an extended output whose rows keep wp - ow unused
// columns; im2col row p = (ci, ky, kx) of that extended matrix is then the
// padded input itself shifted by ci * plane + ky * dy * wp + kx * dx, so the
// GEMM reads B in place (GemmArgs::b_offsets) and nothing is packed: the copy
// costs c_in * hp * wp floats against im2col's k * oh * ow. The padded input,
// the extended output and the offsets come from the temp allocator; without
// enough temp memory the caller falls back to the im2col GEMM.
#include <cstring>

#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

bool conv_padded_applies(const ConvGeometry& g) {
  if (g.transposed || g.sy != 1 || g.sx != 1) return false;
  if (g.kh * g.kw == 1 && g.py == 0 && g.px == 0) return false;  // 1x1: the input is B already
  const int64_t cig = g.c_in / g.groups;
  const bool nchw_out = g.os[3] == 1 && (g.oh == 1 || g.os[2] == g.ow);
  const bool w_rows = (g.kw == 1 || g.ws[3] == 1) && (g.kh == 1 || g.ws[2] == g.kw) &&
                      (cig == 1 || g.ws[1] == g.kh * g.kw);
  // The extended output computes wp - ow unused columns per row; im2col instead
  // packs k values per output position, amortised over cog rows. Few output
  // channels: packing dominates; wide rows: the unused columns are few.
  const int64_t wp = g.w + 2 * g.px;
  const int64_t cog = g.c_out / g.groups;
  return nchw_out && w_rows && (cog <= 32 || g.ow >= 8 * (wp - g.ow));
}

bool conv_padded_f32(runtime::KernelRuntimeContext& ctx, const ConvGeometry& g, const float* in,
                     const float* weight, const float* bias, float* out) {
  if (!conv_padded_applies(g)) return false;
  const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
  const int64_t wp = g.w + 2 * g.px, hp = g.h + 2 * g.py, plane = hp * wp;
  const int64_t n_ext = (g.oh - 1) * wp + g.ow;  // extended output columns
  const int64_t k = cig * g.kh * g.kw;
  const size_t pad_floats = size_t(cig * plane + kGemmBSlack);
  runtime::Result<void*> pad_mem = ctx.allocate_temp(pad_floats * sizeof(float), 64);
  runtime::Result<void*> ext_mem = ctx.allocate_temp(size_t(cog * n_ext) * sizeof(float), 64);
  runtime::Result<void*> off_mem = ctx.allocate_temp(size_t(k) * sizeof(int64_t), 64);
  if (!pad_mem.ok() || !ext_mem.ok() || !off_mem.ok()) return false;
  float* pad = static_cast<float*>(pad_mem.get());
  float* ext = static_cast<float*>(ext_mem.get());
  int64_t* offsets = static_cast<int64_t*>(off_mem.get());
  std::memset(pad, 0, pad_floats * sizeof(float));  // borders and slack stay zero
  int64_t p = 0;
  for (int64_t ci = 0; ci < cig; ++ci) {
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      for (int64_t kx = 0; kx < g.kw; ++kx) offsets[p++] = ci * plane + ky * g.dy * wp + kx * g.dx;
    }
  }
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* src = in + n * g.is[0] + grp * cig * g.is[1];
      for (int64_t ci = 0; ci < cig; ++ci) {
        for (int64_t y = 0; y < g.h; ++y) {
          const float* s = src + ci * g.is[1] + y * g.is[2];
          float* d = pad + ci * plane + (y + g.py) * wp + g.px;
          if (g.is[3] == 1) {
            std::memcpy(d, s, size_t(g.w) * sizeof(float));
          } else {
            for (int64_t x = 0; x < g.w; ++x) d[x] = s[x * g.is[3]];
          }
        }
      }
      GemmArgs a;
      a.m = cog;
      a.n = n_ext;
      a.k = k;
      a.a = weight + grp * cog * g.ws[0];
      a.a_rs = g.ws[0];
      a.a_cs = 1;
      a.b = pad;
      a.b_offsets = offsets;
      a.c = ext;
      a.c_rs = n_ext;
      a.bias_m = bias != nullptr ? bias + grp * cog : nullptr;
      sgemm(a, ctx.thread_pool());
      float* o = out + n * g.os[0] + grp * cog * g.os[1];
      for (int64_t co = 0; co < cog; ++co) {
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          std::memcpy(o + co * g.os[1] + oy * g.os[2], ext + co * n_ext + oy * wp,
                      size_t(g.ow) * sizeof(float));
        }
      }
    }
  }
  return true;
}

}  // namespace ember::kernels::portable
