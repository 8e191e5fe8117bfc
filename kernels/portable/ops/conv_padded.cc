// float32 convolution over a zero-padded copy of the input (declared in
// conv_geometry.h). The padded input (hp x wp per channel) is stored as
// sy x sx phase planes of hq x wq (phase (a, b) holds padded rows a, a + sy, ...
// and columns b, b + sx, ...; stride 1: one plane, the padded input itself).
// Output position (oy, ox) is column j = oy * wq + ox of an extended output
// whose rows keep wq - ow unused columns; im2col row p = (ci, ky, kx) of that
// extended matrix is then one phase plane shifted by a constant (phase
// (ky*dy % sy, kx*dx % sx), shift (ky*dy / sy) * wq + kx*dx / sx), so the GEMM
// reads B in place (GemmArgs::b_offsets) and nothing is packed: the copy costs
// c_in * hp * wp floats against im2col's k * oh * ow. The copy, the extended
// output and the offsets come from the temp allocator; without enough temp
// memory the caller falls back to the im2col GEMM.
#include <cstring>

#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

namespace {

int64_t ceil_div(int64_t a, int64_t b) { return (a + b - 1) / b; }

constexpr int64_t kMaxStride = 16;  // larger strides take the im2col path

}  // namespace

bool conv_padded_applies(const ConvGeometry& g) {
  if (g.transposed || g.sx > kMaxStride) return false;
  if (g.kh * g.kw == 1 && g.py == 0 && g.px == 0 && g.sy == 1 && g.sx == 1) {
    return false;  // 1x1: the input is B already
  }
  const int64_t cig = g.c_in / g.groups;
  const bool nchw_out = g.os[3] == 1 && (g.oh == 1 || g.os[2] == g.ow);
  const bool w_rows = (g.kw == 1 || g.ws[3] == 1) && (g.kh == 1 || g.ws[2] == g.kw) &&
                      (cig == 1 || g.ws[1] == g.kh * g.kw);
  // The extended output computes wq - ow unused columns per row; im2col instead
  // packs k values per output position, amortised over cog rows. Few output
  // channels: packing dominates; wide rows: the unused columns are few.
  const int64_t wq = ceil_div(g.w + 2 * g.px, g.sx);
  const int64_t cog = g.c_out / g.groups;
  return nchw_out && w_rows && (cog <= 32 || g.ow >= 8 * (wq - g.ow));
}

bool conv_padded_f32(runtime::KernelRuntimeContext& ctx, const ConvGeometry& g, const float* in,
                     const float* weight, const float* bias, float* out) {
  if (!conv_padded_applies(g)) return false;
  const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
  const int64_t hq = ceil_div(g.h + 2 * g.py, g.sy), wq = ceil_div(g.w + 2 * g.px, g.sx);
  const int64_t phase = hq * wq, plane = g.sy * g.sx * phase;  // floats per channel
  const int64_t n_ext = (g.oh - 1) * wq + g.ow;                 // extended output columns
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
      const int64_t ry = ky * g.dy;
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t rx = kx * g.dx;
        offsets[p++] = ci * plane + ((ry % g.sy) * g.sx + rx % g.sx) * phase + (ry / g.sy) * wq +
                       rx / g.sx;
      }
    }
  }
  // Phase column b holds padded columns b, b + sx, ...: input columns x0, x0 + sx, ...
  int64_t col_x0[kMaxStride], col_dst[kMaxStride], col_count[kMaxStride];
  for (int64_t b = 0; b < g.sx; ++b) {
    const int64_t x0 = ((b - g.px) % g.sx + g.sx) % g.sx;
    col_x0[b] = x0;
    col_dst[b] = b * phase + (x0 + g.px) / g.sx;
    col_count[b] = x0 < g.w ? (g.w - 1 - x0) / g.sx + 1 : 0;
  }
  const int64_t col_step = g.sx * g.is[3];
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      const float* src = in + n * g.is[0] + grp * cig * g.is[1];
      for (int64_t ci = 0; ci < cig; ++ci) {
        int64_t ay = g.py % g.sy, qy = g.py / g.sy;  // phase row and position of y = 0
        for (int64_t y = 0; y < g.h; ++y) {
          const float* s = src + ci * g.is[1] + y * g.is[2];
          float* row = pad + ci * plane + ay * g.sx * phase + qy * wq;
          if (++ay == g.sy) {
            ay = 0;
            ++qy;
          }
          if (g.sx == 1 && g.is[3] == 1) {
            std::memcpy(row + g.px, s, size_t(g.w) * sizeof(float));
            continue;
          }
          for (int64_t b = 0; b < g.sx; ++b) {
            float* d = row + col_dst[b];
            const float* sb = s + col_x0[b] * g.is[3];
            for (int64_t t = 0; t < col_count[b]; ++t) d[t] = sb[t * col_step];
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
          std::memcpy(o + co * g.os[1] + oy * g.os[2], ext + co * n_ext + oy * wq,
                      size_t(g.ow) * sizeof(float));
        }
      }
    }
  }
  return true;
}

}  // namespace ember::kernels::portable
