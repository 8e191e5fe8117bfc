// float32 convolutions (declared in conv_geometry.h): implicit GEMM with
// im2col done inside the GEMM's packing routines (depthwise: conv_depthwise.cc).
#include "kernels/portable/ops/conv_geometry.h"
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

namespace {

// What the packers read: one image of one group.
struct ConvPack {
  const ConvGeometry* g;
  const float* in;  // image n, first input channel of the group
  const float* w;   // first output channel of the group
};

// Values of im2col row p (= ci, ky, kx) for output positions j[0..count).
inline void im2col_values(const ConvPack& c, int64_t p, const int64_t* iy0, const int64_t* ix0,
                          int64_t count, float* dst, int64_t dst_stride) {
  const ConvGeometry& g = *c.g;
  const int64_t khw = g.kh * g.kw;
  const int64_t ci = p / khw, r = p % khw, ky = r / g.kw, kx = r % g.kw;
  const float* base = c.in + ci * g.is[1];
  const int64_t oy = ky * g.dy, ox = kx * g.dx;
  for (int64_t t = 0; t < count; ++t) {
    const int64_t iy = iy0[t] + oy, ix = ix0[t] + ox;
    dst[t * dst_stride] =
        (iy >= 0 && iy < g.h && ix >= 0 && ix < g.w) ? base[iy * g.is[2] + ix * g.is[3]] : 0.0f;
  }
}

// Input origins of output positions j0 .. j0+count.
inline void origins(const ConvGeometry& g, int64_t j0, int64_t count, int64_t* iy0,
                    int64_t* ix0) {
  int64_t oy = j0 / g.ow, ox = j0 % g.ow;
  for (int64_t t = 0; t < count; ++t) {
    iy0[t] = oy * g.sy - g.py;
    ix0[t] = ox * g.sx - g.px;
    if (++ox == g.ow) {
      ox = 0;
      ++oy;
    }
  }
}

inline float weight_at(const ConvPack& c, int64_t co, int64_t p) {
  const ConvGeometry& g = *c.g;
  const int64_t khw = g.kh * g.kw;
  const int64_t ci = p / khw, r = p % khw;
  return c.w[co * g.ws[0] + ci * g.ws[1] + (r / g.kw) * g.ws[2] + (r % g.kw) * g.ws[3]];
}

// NCHW output: C[co][j] = W[co][p] x im2col[p][j].
void pack_weight_a(const void* ctx, int64_t i0, int64_t mc, int64_t p0, int64_t kc, int64_t mr,
                   float* dst) {
  const ConvPack& c = *static_cast<const ConvPack*>(ctx);
  for (int64_t ir = 0; ir < mc; ir += mr) {
    for (int64_t p = p0; p < p0 + kc; ++p) {
      for (int64_t r = 0; r < mr; ++r) dst[r] = ir + r < mc ? weight_at(c, i0 + ir + r, p) : 0.0f;
      dst += mr;
    }
  }
}

// One run of `count` im2col values of row (ci, ky, kx) for output positions
// (oy, ox .. ox + count) of one output row.
inline void im2col_run(const ConvGeometry& g, const float* plane, int64_t ky, int64_t kx,
                       int64_t oy, int64_t ox, int64_t count, float* dst) {
  const int64_t iy = oy * g.sy - g.py + ky * g.dy;
  if (iy < 0 || iy >= g.h) {
    for (int64_t t = 0; t < count; ++t) dst[t] = 0.0f;
    return;
  }
  const float* row = plane + iy * g.is[2];
  const int64_t ix0 = ox * g.sx - g.px + kx * g.dx;
  if (g.sx == 1 && g.is[3] == 1) {  // one contiguous run, zeros at the edges
    int64_t lo = ix0 < 0 ? -ix0 : 0;
    int64_t hi = g.w - ix0 < count ? g.w - ix0 : count;
    if (hi < 0) hi = 0;
    if (lo > hi) lo = hi;
    for (int64_t t = 0; t < lo; ++t) dst[t] = 0.0f;
    const float* src = row + ix0;
    for (int64_t t = lo; t < hi; ++t) dst[t] = src[t];
    for (int64_t t = hi; t < count; ++t) dst[t] = 0.0f;
    return;
  }
  // Positions t with 0 <= ix0 + t * sx < w: [lo, hi) (stepped, not divided: a
  // division per run cost more than the copy on small strided convs).
  int64_t lo = 0;
  while (lo < count && ix0 + lo * g.sx < 0) ++lo;
  int64_t hi = count;
  while (hi > lo && ix0 + (hi - 1) * g.sx >= g.w) --hi;
  for (int64_t t = 0; t < lo; ++t) dst[t] = 0.0f;
  const int64_t step = g.sx * g.is[3];
  const float* src = row + ix0 * g.is[3];
  for (int64_t t = lo; t < hi; ++t) dst[t] = src[t * step];
  for (int64_t t = hi; t < count; ++t) dst[t] = 0.0f;
}

// Packs output positions [first, first + count) of the im2col matrix, rows
// p0..p0+kc, into zero-padded panels of `panel` positions (the GEMM's A or B side).
void pack_im2col_panels(const ConvPack& c, int64_t first, int64_t count, int64_t p0, int64_t kc,
                        int64_t panel, float* dst) {
  const ConvGeometry& g = *c.g;
  for (int64_t r = 0; r < count; r += panel) {
    const int64_t n = count - r < panel ? count - r : panel;
    const int64_t j = first + r;
    const int64_t oy0 = j / g.ow, ox0 = j % g.ow;
    int64_t ci = p0 / (g.kh * g.kw), ky = (p0 / g.kw) % g.kh, kx = p0 % g.kw;
    for (int64_t p = p0; p < p0 + kc; ++p) {
      const float* plane = c.in + ci * g.is[1];
      int64_t t = 0, oy = oy0, ox = ox0;
      while (t < n) {
        const int64_t run = n - t < g.ow - ox ? n - t : g.ow - ox;
        im2col_run(g, plane, ky, kx, oy, ox, run, dst + t);
        t += run;
        ox = 0;
        ++oy;
      }
      for (int64_t q = n; q < panel; ++q) dst[q] = 0.0f;
      dst += panel;
      if (++kx == g.kw) {
        kx = 0;
        if (++ky == g.kh) {
          ky = 0;
          ++ci;
        }
      }
    }
  }
}

void pack_im2col_b(const void* ctx, int64_t p0, int64_t kc, int64_t j0, int64_t nc, int64_t nr,
                   float* dst) {
  pack_im2col_panels(*static_cast<const ConvPack*>(ctx), j0, nc, p0, kc, nr, dst);
}

// Channels-last output: C[j][co] = im2col^T[j][p] x W^T[p][co].
void pack_im2col_a(const void* ctx, int64_t i0, int64_t mc, int64_t p0, int64_t kc, int64_t mr,
                   float* dst) {
  pack_im2col_panels(*static_cast<const ConvPack*>(ctx), i0, mc, p0, kc, mr, dst);
}

void pack_weight_b(const void* ctx, int64_t p0, int64_t kc, int64_t j0, int64_t nc, int64_t nr,
                   float* dst) {
  const ConvPack& c = *static_cast<const ConvPack*>(ctx);
  for (int64_t jr = 0; jr < nc; jr += nr) {
    for (int64_t p = p0; p < p0 + kc; ++p) {
      for (int64_t t = 0; t < nr; ++t) dst[t] = jr + t < nc ? weight_at(c, j0 + jr + t, p) : 0.0f;
      dst += nr;
    }
  }
}

void set_gemm(GemmArgs* a, int64_t m, int64_t n, const float* pa, int64_t a_rs, int64_t a_cs,
              const float* pb, int64_t b_rs, int64_t b_cs, float* c, int64_t c_rs) {
  a->m = m;
  a->n = n;
  a->a = pa;
  a->a_rs = a_rs;
  a->a_cs = a_cs;
  a->b = pb;
  a->b_rs = b_rs;
  a->b_cs = b_cs;
  a->c = c;
  a->c_rs = c_rs;
}

}  // namespace

void conv_gemm_f32(const ConvGeometry& g, const float* in, const float* weight, const float* bias,
                   float* out, runtime::ThreadPool* pool) {
  const int64_t cig = g.c_in / g.groups, cog = g.c_out / g.groups;
  const int64_t spatial = g.oh * g.ow;
  // The flattened output position j = oy * ow + ox must have one stride.
  const bool rows_flat = g.oh == 1 || g.os[2] == g.ow * g.os[3];
  const bool nchw = rows_flat && g.os[3] == 1;
  const bool nhwc = rows_flat && g.os[1] == 1;
  // A 1x1 conv whose input positions are one strided run, like its output's.
  const bool pointwise = g.kh == 1 && g.kw == 1 && g.sy == 1 && g.sx == 1 && g.py == 0 &&
                         g.px == 0 && (g.h == 1 || g.is[2] == g.w * g.is[3]);
  // Weights whose (ci, ky, kx) order is contiguous (OIHW): row co of the
  // im2col-ordered weight matrix is one run of memory.
  const bool w_rows = (g.kw == 1 || g.ws[3] == 1) && (g.kh == 1 || g.ws[2] == g.kw) &&
                      (cig == 1 || g.ws[1] == g.kh * g.kw);
  for (int64_t n = 0; n < g.n; ++n) {
    for (int64_t grp = 0; grp < g.groups; ++grp) {
      ConvPack c{&g, in + n * g.is[0] + grp * cig * g.is[1], weight + grp * cog * g.ws[0]};
      float* o = out + n * g.os[0] + grp * cog * g.os[1];
      const float* b = bias != nullptr ? bias + grp * cog : nullptr;
      GemmArgs a;
      a.k = cig * g.kh * g.kw;
      if (pointwise && (nchw || nhwc)) {
        // 1x1, stride 1, no padding: the input is the im2col matrix itself.
        const float* x = c.in;
        if (nchw) {  // C[co][j] = W[co][ci] x X[ci][j]
          set_gemm(&a, cog, spatial, c.w, g.ws[0], g.ws[1], x, g.is[1], g.is[3], o, g.os[1]);
          a.bias_m = b;
        } else {  // C[j][co] = X^T[j][ci] x W^T[ci][co]
          set_gemm(&a, spatial, cog, x, g.is[3], g.is[1], c.w, g.ws[1], g.ws[0], o, g.os[3]);
          a.bias_n = b;
        }
        sgemm(a, pool);
        continue;
      }
      if (nchw || !nhwc) {
        a.m = cog;
        a.n = spatial;
        if (w_rows) {  // W[co][p] read in place by the GEMM
          a.a = c.w;
          a.a_rs = g.ws[0];
          a.a_cs = 1;
        } else {
          a.pack_a = &pack_weight_a;
          a.pack_a_context = &c;
        }
        a.pack_b = &pack_im2col_b;
        a.pack_b_context = &c;
        a.c = o;
        a.c_rs = g.os[1];
        a.bias_m = b;
      } else {
        a.m = spatial;
        a.n = cog;
        a.pack_a = &pack_im2col_a;
        a.pack_a_context = &c;
        a.pack_b = &pack_weight_b;
        a.pack_b_context = &c;
        a.c = o;
        a.c_rs = g.os[3];
        a.bias_n = b;
      }
      if (nchw || nhwc) {
        sgemm(a, pool);
        continue;
      }
      // Any other output layout (rare): one dot product per output element.
      for (int64_t co = 0; co < cog; ++co) {
        for (int64_t j = 0; j < spatial; ++j) {
          float acc = b != nullptr ? b[co] : 0.0f;
          int64_t iy0, ix0;
          origins(g, j, 1, &iy0, &ix0);
          for (int64_t p = 0; p < a.k; ++p) {
            float v;
            im2col_values(c, p, &iy0, &ix0, 1, &v, 1);
            acc += weight_at(c, co, p) * v;
          }
          o[co * g.os[1] + (j / g.ow) * g.os[2] + (j % g.ow) * g.os[3]] = acc;
        }
      }
    }
  }
}

}  // namespace ember::kernels::portable
