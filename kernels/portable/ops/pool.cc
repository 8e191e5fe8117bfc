// Pooling kernels; see pool.h.
#include "kernels/portable/ops/pool.h"

#include <cmath>
#include <type_traits>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/max_pool_neon.h"
#include "kernels/portable/util/neon_paths.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

struct PoolGeometry {
  int64_t planes_n = 1, c = 0, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sy = 1, sx = 1, py = 0, px = 0, dy = 1, dx = 1;
  int64_t is[4] = {}, os[4] = {};  // N, C, H, W strides (N stride 0 for 3-D)
};

bool pair(KernelRuntimeContext& ctx, IntList l, int64_t dflt_y, int64_t dflt_x, int64_t* y,
          int64_t* x, const char* op, const char* name) {
  if (l.size() == 0) {
    *y = dflt_y;
    *x = dflt_x;
    return true;
  }
  if (l.size() > 2) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have 1 or 2 values, got %zu", op, name,
             l.size());
    return false;
  }
  *y = l[0];
  *x = l[l.size() - 1];
  return true;
}

int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1;
  int64_t out = (span + (ceil ? stride - 1 : 0)) / stride + 1;
  if (span < 0) return span / stride + 1 - (span % stride != 0 ? 1 : 0);
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

void strides4(const Tensor& t, int64_t* s) {
  const size_t o = t.dim() == 4 ? 0 : 1;
  s[0] = t.dim() == 4 ? t.strides()[0] : 0;
  for (size_t i = 1; i < 4; ++i) s[i] = t.strides()[i - o];
}

bool input_dims(KernelRuntimeContext& ctx, const Tensor& in, PoolGeometry* g, const char* op) {
  if (in.dim() != 3 && in.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: input must be 3-D or 4-D, got %zu dims", op, in.dim());
    return false;
  }
  const size_t o = in.dim() == 4 ? 1 : 0;
  g->planes_n = o ? in.size(0) : 1;
  g->c = in.size(o);
  g->h = in.size(o + 1);
  g->w = in.size(o + 2);
  strides4(in, g->is);
  return true;
}

bool resize_pooled(KernelRuntimeContext& ctx, const Tensor& in, PoolGeometry* g, Tensor& out,
                   const char* op) {
  Shape s;
  if (in.dim() == 4) s.push(g->planes_n);
  s.push(g->c);
  s.push(g->oh);
  s.push(g->ow);
  if (!resize_out(ctx, out, s.span(), op)) return false;
  strides4(out, g->os);
  return true;
}

bool window_geometry(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel, IntList stride,
                     IntList padding, IntList dilation, bool ceil_mode, PoolGeometry* g,
                     const char* op) {
  if (!input_dims(ctx, in, g, op)) return false;
  if (kernel.size() == 0 || !pair(ctx, kernel, 1, 1, &g->kh, &g->kw, op, "kernel_size") ||
      !pair(ctx, stride, g->kh, g->kw, &g->sy, &g->sx, op, "stride") ||
      !pair(ctx, padding, 0, 0, &g->py, &g->px, op, "padding") ||
      !pair(ctx, dilation, 1, 1, &g->dy, &g->dx, op, "dilation")) {
    if (kernel.size() == 0) ctx.fail(Error::InvalidArgument, "%s: kernel_size is empty", op);
    return false;
  }
  if (g->kh <= 0 || g->kw <= 0 || g->sy <= 0 || g->sx <= 0 || g->dy <= 0 || g->dx <= 0 ||
      g->py < 0 || g->px < 0 || g->py > g->kh / 2 || g->px > g->kw / 2) {
    ctx.fail(Error::InvalidArgument,
             "%s: kernel, stride, dilation must be positive and padding at most half the kernel",
             op);
    return false;
  }
  g->oh = pooled_size(g->h, g->kh, g->py, g->sy, g->dy, ceil_mode);
  g->ow = pooled_size(g->w, g->kw, g->px, g->sx, g->dx, ceil_mode);
  if (g->oh <= 0 || g->ow <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: output size would be %lld x %lld", op,
             static_cast<long long>(g->oh), static_cast<long long>(g->ow));
    return false;
  }
  return true;
}

// float32 max pool over rows whose windows lie inside the input (every ky of the row in
// bounds is scanned for a whole run of output columns at once, no bounds checks): the
// generic loop's result element for element, the first maximum in (ky, kx) order, the first
// NaN winning. Columns whose window crosses the left or right edge go to `edge`. On aarch64
// the run is the NEON step's (util/max_pool_neon.h) at column strides 1 and 2; returns
// whether it ran.
template <typename EdgeFn>
bool max_pool_rows_f32(const PoolGeometry& g, const float* plane, float* po_plane,
                       int64_t* px_plane, int64_t orow_stride, int64_t xrow_stride, EdgeFn edge) {
  // Output columns [lo, hi) have every kx in bounds.
  int64_t lo = 0;
  while (lo < g.ow && lo * g.sx - g.px < 0) ++lo;
  int64_t hi = g.ow;
  while (hi > lo && (hi - 1) * g.sx - g.px + (g.kw - 1) * g.dx >= g.w) --hi;
  bool neon = false;
  for (int64_t oy = 0; oy < g.oh; ++oy) {
    float* best = po_plane + oy * orow_stride;
    int64_t* best_i = px_plane + oy * xrow_stride;
    for (int64_t ox = 0; ox < lo; ++ox) edge(oy, ox);
    for (int64_t ox = hi; ox < g.ow; ++ox) edge(oy, ox);
    bool first = true;
    for (int64_t ky = 0; ky < g.kh; ++ky) {
      const int64_t iy = oy * g.sy - g.py + ky * g.dy;
      if (iy < 0 || iy >= g.h) continue;
      const float* row = plane + iy * g.is[2];
      for (int64_t kx = 0; kx < g.kw; ++kx) {
        const int64_t x0 = lo * g.sx - g.px + kx * g.dx;  // input column of output lo
        const float* src = row + x0;
        const int64_t i0 = iy * g.w + x0;
        if (max_pool_row_neon(src, g.sx, hi - lo, i0, first, best + lo, best_i + lo)) {
          neon = true;
          first = false;
          continue;
        }
        if (first) {
          for (int64_t t = 0; t < hi - lo; ++t) {
            best[lo + t] = src[t * g.sx];
            best_i[lo + t] = i0 + t * g.sx;
          }
          first = false;
          continue;
        }
        for (int64_t t = 0; t < hi - lo; ++t) {
          const float v = src[t * g.sx], b = best[lo + t];
          const bool take = v > b || (v != v && b == b);
          best[lo + t] = take ? v : b;
          best_i[lo + t] = take ? i0 + t * g.sx : best_i[lo + t];
        }
      }
    }
    if (first) {  // no row in bounds (not reachable with valid padding): generic loop
      for (int64_t ox = lo; ox < hi; ++ox) edge(oy, ox);
    }
  }
  return neon;
}

}  // namespace

void max_pool2d_with_indices_out(KernelRuntimeContext& ctx, const Tensor& in,
                                 IntList kernel_size, IntList stride, IntList padding,
                                 IntList dilation, bool ceil_mode, Tensor& out,
                                 Tensor& indices) {
  const char* op = "max_pool2d_with_indices.out";
  PoolGeometry g;
  if (!window_geometry(ctx, in, kernel_size, stride, padding, dilation, ceil_mode, &g, op)) return;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !check_dtype(ctx, indices, runtime::ScalarType::Long, op, "indices")) {
    return;
  }
  if (!resize_pooled(ctx, in, &g, out, op)) return;
  int64_t xs[4];
  if (!resize_out(ctx, indices, out.sizes(), op)) return;
  strides4(indices, xs);
  bool neon_rows = false;
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    int64_t* px = indices.mutable_data_ptr<int64_t>();
    // float32 with unit column strides: rows of in-bounds windows at once.
    const bool rows_fast = std::is_same<S, float>::value && g.is[3] == 1 && g.os[3] == 1 &&
                           xs[3] == 1;
    for (int64_t n = 0; n < g.planes_n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const S* plane = pi + n * g.is[0] + c * g.is[1];
        auto one = [&](int64_t oy, int64_t ox) {
          C best = C(0);
          int64_t best_i = -1;
          bool nan = false;
          for (int64_t ky = 0; ky < g.kh && !nan; ++ky) {
            const int64_t iy = oy * g.sy - g.py + ky * g.dy;
            if (iy < 0 || iy >= g.h) continue;
            for (int64_t kx = 0; kx < g.kw; ++kx) {
              const int64_t ix = ox * g.sx - g.px + kx * g.dx;
              if (ix < 0 || ix >= g.w) continue;
              const C v = cast<C>(plane[iy * g.is[2] + ix * g.is[3]]);
              bool v_nan = false;
              if constexpr (std::is_floating_point<C>::value) v_nan = std::isnan(v);
              if (best_i < 0 || v > best || v_nan) {
                best = v;
                best_i = iy * g.w + ix;
                if (v_nan) {
                  nan = true;
                  break;
                }
              }
            }
          }
          po[n * g.os[0] + c * g.os[1] + oy * g.os[2] + ox * g.os[3]] = cast<S>(best);
          px[n * xs[0] + c * xs[1] + oy * xs[2] + ox * xs[3]] = best_i;
        };
        if constexpr (std::is_same<S, float>::value) {
          if (rows_fast) {
            neon_rows |= max_pool_rows_f32(g, plane, po + n * g.os[0] + c * g.os[1],
                                           px + n * xs[0] + c * xs[1], g.os[2], xs[2], one);
            continue;
          }
        }
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          for (int64_t ox = 0; ox < g.ow; ++ox) one(oy, ox);
        }
      }
    }
  });
#if defined(__aarch64__)
  if (neon_rows) count_neon_path(NeonPath::MaxPool);
#else
  (void)neon_rows;
#endif
  if (!ok) fail_dtype(ctx, in, op, "input");
}

Tensor& avg_pool2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel_size,
                       IntList stride, IntList padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override, Tensor& out) {
  const char* op = "avg_pool2d.out";
  PoolGeometry g;
  if (!window_geometry(ctx, in, kernel_size, stride, padding, {}, ceil_mode, &g, op)) return out;
  if (divisor_override.has_value() && *divisor_override == 0) {
    ctx.fail(Error::InvalidArgument, "%s: divisor must be non-zero", op);
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_pooled(ctx, in, &g, out, op)) return out;
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = std::conditional_t<is_float_v<S>, compute_t<S>, int64_t>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    for (int64_t n = 0; n < g.planes_n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const S* plane = pi + n * g.is[0] + c * g.is[1];
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          int64_t y0 = oy * g.sy - g.py, y1 = y0 + g.kh;
          if (y1 > g.h + g.py) y1 = g.h + g.py;
          const int64_t pool_h = y1 - y0;
          y0 = y0 < 0 ? 0 : y0;
          y1 = y1 > g.h ? g.h : y1;
          for (int64_t ox = 0; ox < g.ow; ++ox) {
            int64_t x0 = ox * g.sx - g.px, x1 = x0 + g.kw;
            if (x1 > g.w + g.px) x1 = g.w + g.px;
            const int64_t pool_w = x1 - x0;
            x0 = x0 < 0 ? 0 : x0;
            x1 = x1 > g.w ? g.w : x1;
            C sum = C(0);
            for (int64_t iy = y0; iy < y1; ++iy) {
              for (int64_t ix = x0; ix < x1; ++ix) sum += cast<C>(plane[iy * g.is[2] + ix * g.is[3]]);
            }
            int64_t div = divisor_override.has_value() ? *divisor_override
                          : count_include_pad        ? pool_h * pool_w
                                                     : (y1 - y0) * (x1 - x0);
            C v;
            if constexpr (std::is_integral<C>::value) {
              v = div == 0 ? 0 : sum / div;
            } else {
              v = sum / C(div);
            }
            po[n * g.os[0] + c * g.os[1] + oy * g.os[2] + ox * g.os[3]] = cast<S>(v);
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

Tensor& adaptive_avg_pool2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                                Tensor& out) {
  const char* op = "_adaptive_avg_pool2d.out";
  PoolGeometry g;
  if (!input_dims(ctx, in, &g, op)) return out;
  if (output_size.size() != 2 || output_size[0] < 0 || output_size[1] < 0) {
    ctx.fail(Error::InvalidArgument, "%s: output_size must be 2 non-negative values", op);
    return out;
  }
  g.oh = output_size[0];
  g.ow = output_size[1];
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_pooled(ctx, in, &g, out, op)) return out;
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    for (int64_t n = 0; n < g.planes_n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const S* plane = pi + n * g.is[0] + c * g.is[1];
        for (int64_t oy = 0; oy < g.oh; ++oy) {
          const int64_t y0 = (oy * g.h) / g.oh, y1 = ((oy + 1) * g.h + g.oh - 1) / g.oh;
          for (int64_t ox = 0; ox < g.ow; ++ox) {
            const int64_t x0 = (ox * g.w) / g.ow, x1 = ((ox + 1) * g.w + g.ow - 1) / g.ow;
            C sum = C(0);
            for (int64_t iy = y0; iy < y1; ++iy) {
              for (int64_t ix = x0; ix < x1; ++ix) sum += cast<C>(plane[iy * g.is[2] + ix * g.is[3]]);
            }
            po[n * g.os[0] + c * g.os[1] + oy * g.os[2] + ox * g.os[3]] =
                cast<S>(sum / C((y1 - y0) * (x1 - x0)));
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
