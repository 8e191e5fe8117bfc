// 3-D pooling (see pool3d.h).
#include "kernels/portable/ops/pool3d.h"

#include <cmath>
#include <type_traits>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::Tensor;

namespace {

// One 3-D pooling window: input and output extents, kernel, stride, padding and dilation per
// spatial dim (D, H, W), and the element strides of input and output as (N, C, D, H, W) (N
// stride 0 when the input is unbatched).
struct Window3d {
  int64_t n = 1, c = 0;
  int64_t in[3] = {}, out[3] = {}, k[3] = {}, s[3] = {}, p[3] = {}, d[3] = {1, 1, 1};
  int64_t is[5] = {}, os[5] = {};
};

void strides5(const Tensor& t, int64_t* s) {
  int64_t st[kMaxTensorDims];
  tensor_strides(t, st);
  const size_t b = t.dim() - 4;
  s[0] = b ? st[0] : 0;
  for (size_t i = 1; i < 5; ++i) s[i] = st[i - 1 + b];
}

// A list of 1 or 3 values (or `dflt` when empty) into v[3].
bool triple(KernelRuntimeContext& ctx, IntList l, const int64_t* dflt, int64_t* v, const char* op,
            const char* name) {
  if (l.size() != 0 && l.size() != 1 && l.size() != 3) {
    ctx.fail(Error::InvalidArgument, "%s: %s must have 1 or 3 values, got %zu", op, name,
             l.size());
    return false;
  }
  for (size_t i = 0; i < 3; ++i) v[i] = l.size() == 0 ? dflt[i] : l[l.size() == 1 ? 0 : i];
  return true;
}

// ATen's pooling output size (pooling_output_shape): floor or ceil, and with ceil_mode the
// last window must start inside the input or its left padding.
int64_t pooled(int64_t in, int64_t k, int64_t pad, int64_t stride, int64_t dil, bool ceil) {
  const int64_t span = in + 2 * pad - dil * (k - 1) - 1;
  if (span < 0) return 0;
  int64_t out = (span + (ceil ? stride - 1 : 0)) / stride + 1;
  if (ceil && (out - 1) * stride >= in + pad) --out;
  return out;
}

bool window3d(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel, IntList stride,
              IntList padding, IntList dilation, bool ceil_mode, Window3d* g, const char* op) {
  if (in.dim() != 4 && in.dim() != 5) {
    ctx.fail(Error::InvalidArgument,
             "%s: input must be (C, D, H, W) or (N, C, D, H, W), got %zu dims", op, in.dim());
    return false;
  }
  const size_t b = in.dim() - 4;
  g->n = b ? in.size(0) : 1;
  g->c = in.size(b);
  for (size_t i = 0; i < 3; ++i) g->in[i] = in.size(b + 1 + i);
  const int64_t ones[3] = {1, 1, 1}, zeros[3] = {0, 0, 0};
  if (kernel.size() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: kernel_size is empty", op);
    return false;
  }
  if (!triple(ctx, kernel, ones, g->k, op, "kernel_size") ||
      !triple(ctx, stride, g->k, g->s, op, "stride") ||
      !triple(ctx, padding, zeros, g->p, op, "padding") ||
      !triple(ctx, dilation, ones, g->d, op, "dilation")) {
    return false;
  }
  for (size_t i = 0; i < 3; ++i) {
    if (g->k[i] <= 0 || g->s[i] <= 0 || g->d[i] <= 0 || g->p[i] < 0 ||
        g->p[i] > ((g->k[i] - 1) * g->d[i] + 1) / 2) {
      ctx.fail(Error::InvalidArgument,
               "%s: kernel, stride, dilation must be positive and padding at most half the "
               "effective kernel (dim %zu: kernel %lld, stride %lld, padding %lld, dilation %lld)",
               op, i, static_cast<long long>(g->k[i]), static_cast<long long>(g->s[i]),
               static_cast<long long>(g->p[i]), static_cast<long long>(g->d[i]));
      return false;
    }
    g->out[i] = pooled(g->in[i], g->k[i], g->p[i], g->s[i], g->d[i], ceil_mode);
    if (g->out[i] <= 0) {
      ctx.fail(Error::InvalidArgument, "%s: input %lld is too small for the window in dim %zu",
               op, static_cast<long long>(g->in[i]), i);
      return false;
    }
  }
  strides5(in, g->is);
  return true;
}

bool resize_pooled3d(KernelRuntimeContext& ctx, const Tensor& in, Window3d* g, Tensor& out,
                     const char* op) {
  const SizesType shape[5] = {SizesType(g->n), SizesType(g->c), SizesType(g->out[0]),
                              SizesType(g->out[1]), SizesType(g->out[2])};
  const size_t b = in.dim() - 4;
  if (!resize_out(ctx, out, Span<const SizesType>(b ? shape : shape + 1, in.dim()), op)) {
    return false;
  }
  strides5(out, g->os);
  return true;
}

}  // namespace

void max_pool3d_with_indices_out(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel_size,
                                 IntList stride, IntList padding, IntList dilation,
                                 bool ceil_mode, Tensor& out, Tensor& indices) {
  const char* op = "max_pool3d_with_indices.out";
  Window3d g;
  if (!window3d(ctx, in, kernel_size, stride, padding, dilation, ceil_mode, &g, op)) return;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !check_dtype(ctx, indices, runtime::ScalarType::Long, op, "indices") ||
      !resize_pooled3d(ctx, in, &g, out, op) || !resize_out(ctx, indices, out.sizes(), op)) {
    return;
  }
  int64_t xs[5];
  strides5(indices, xs);
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    int64_t* px = indices.mutable_data_ptr<int64_t>();
    // The first maximum in (kz, ky, kx) order; a NaN wins and ends the scan (ATen's rule).
    auto window = [&](const S* plane, int64_t oz, int64_t oy, int64_t ox, C* best_v) {
      C best = C(0);
      int64_t best_i = -1;
      for (int64_t kz = 0; kz < g.k[0]; ++kz) {
        const int64_t iz = oz * g.s[0] - g.p[0] + kz * g.d[0];
        if (iz < 0 || iz >= g.in[0]) continue;
        for (int64_t ky = 0; ky < g.k[1]; ++ky) {
          const int64_t iy = oy * g.s[1] - g.p[1] + ky * g.d[1];
          if (iy < 0 || iy >= g.in[1]) continue;
          for (int64_t kx = 0; kx < g.k[2]; ++kx) {
            const int64_t ix = ox * g.s[2] - g.p[2] + kx * g.d[2];
            if (ix < 0 || ix >= g.in[2]) continue;
            const C v = cast<C>(plane[iz * g.is[2] + iy * g.is[3] + ix * g.is[4]]);
            bool v_nan = false;
            if constexpr (std::is_floating_point<C>::value) v_nan = std::isnan(v);
            if (best_i < 0 || v > best || v_nan) {
              best = v;
              best_i = (iz * g.in[1] + iy) * g.in[2] + ix;
              if (v_nan) {
                *best_v = best;
                return best_i;
              }
            }
          }
        }
      }
      *best_v = best;
      return best_i;
    };
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const S* plane = pi + n * g.is[0] + c * g.is[1];
        for (int64_t oz = 0; oz < g.out[0]; ++oz) {
          for (int64_t oy = 0; oy < g.out[1]; ++oy) {
            for (int64_t ox = 0; ox < g.out[2]; ++ox) {
              C best;
              const int64_t best_i = window(plane, oz, oy, ox, &best);
              po[n * g.os[0] + c * g.os[1] + oz * g.os[2] + oy * g.os[3] + ox * g.os[4]] =
                  cast<S>(best);
              px[n * xs[0] + c * xs[1] + oz * xs[2] + oy * xs[3] + ox * xs[4]] = best_i;
            }
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
}

Tensor& avg_pool3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel_size,
                       IntList stride, IntList padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override, Tensor& out) {
  const char* op = "avg_pool3d.out";
  Window3d g;
  if (!window3d(ctx, in, kernel_size, stride, padding, {}, ceil_mode, &g, op)) return out;
  if (divisor_override.has_value() && *divisor_override == 0) {
    ctx.fail(Error::InvalidArgument, "%s: divisor must be non-zero", op);
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !resize_pooled3d(ctx, in, &g, out, op)) {
    return out;
  }
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = std::conditional_t<is_float_v<S>, compute_t<S>, int64_t>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    // Window [lo, hi) of dim i for output o: clipped to the padded input for the
    // count_include_pad divisor, then to the input for the sum.
    auto range = [&](size_t i, int64_t o, int64_t* lo, int64_t* hi) {
      int64_t a = o * g.s[i] - g.p[i], e = a + g.k[i];
      if (e > g.in[i] + g.p[i]) e = g.in[i] + g.p[i];
      const int64_t padded = e - a;
      *lo = a < 0 ? 0 : a;
      *hi = e > g.in[i] ? g.in[i] : e;
      return padded;
    };
    for (int64_t n = 0; n < g.n; ++n) {
      for (int64_t c = 0; c < g.c; ++c) {
        const S* plane = pi + n * g.is[0] + c * g.is[1];
        for (int64_t oz = 0; oz < g.out[0]; ++oz) {
          int64_t z0, z1;
          const int64_t pd = range(0, oz, &z0, &z1);
          for (int64_t oy = 0; oy < g.out[1]; ++oy) {
            int64_t y0, y1;
            const int64_t ph = range(1, oy, &y0, &y1);
            for (int64_t ox = 0; ox < g.out[2]; ++ox) {
              int64_t x0, x1;
              const int64_t pw = range(2, ox, &x0, &x1);
              C sum = C(0);
              for (int64_t z = z0; z < z1; ++z) {
                for (int64_t y = y0; y < y1; ++y) {
                  for (int64_t x = x0; x < x1; ++x) {
                    sum += cast<C>(plane[z * g.is[2] + y * g.is[3] + x * g.is[4]]);
                  }
                }
              }
              const int64_t div = divisor_override.has_value() ? *divisor_override
                                  : count_include_pad ? pd * ph * pw
                                                      : (z1 - z0) * (y1 - y0) * (x1 - x0);
              C v;
              if constexpr (std::is_integral<C>::value) {
                v = div == 0 ? 0 : sum / div;
              } else {
                v = sum / C(div);
              }
              po[n * g.os[0] + c * g.os[1] + oz * g.os[2] + oy * g.os[3] + ox * g.os[4]] =
                  cast<S>(v);
            }
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

Tensor& adaptive_avg_pool3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                                Tensor& out) {
  const char* op = "_adaptive_avg_pool3d.out";
  if (in.dim() != 4 && in.dim() != 5) {
    ctx.fail(Error::InvalidArgument,
             "%s: input must be (C, D, H, W) or (N, C, D, H, W), got %zu dims", op, in.dim());
    return out;
  }
  if (output_size.size() != 3 || output_size[0] < 0 || output_size[1] < 0 || output_size[2] < 0) {
    ctx.fail(Error::InvalidArgument, "%s: output_size must be 3 non-negative values", op);
    return out;
  }
  const size_t b = in.dim() - 4;  // 1 when batched
  const int64_t n = b ? in.size(0) : 1, c = in.size(b), d = in.size(b + 1), h = in.size(b + 2),
                w = in.size(b + 3);
  const int64_t od = output_size[0], oh = output_size[1], ow = output_size[2];
  if ((d == 0 || h == 0 || w == 0) && od * oh * ow > 0) {
    ctx.fail(Error::InvalidArgument, "%s: empty spatial input", op);
    return out;
  }
  SizesType shape[5] = {SizesType(n), SizesType(c), SizesType(od), SizesType(oh), SizesType(ow)};
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !resize_out(ctx, out, Span<const SizesType>(b ? shape : shape + 1, in.dim()), op)) {
    return out;
  }
  int64_t is[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(in, is);
  tensor_strides(out, os);
  const int64_t isn = b ? is[0] : 0, osn = b ? os[0] : 0;
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    for (int64_t in_ = 0; in_ < n; ++in_) {
      for (int64_t ic = 0; ic < c; ++ic) {
        const S* plane = pi + in_ * isn + ic * is[b];
        for (int64_t oz = 0; oz < od; ++oz) {
          const int64_t z0 = oz * d / od, z1 = ((oz + 1) * d + od - 1) / od;
          for (int64_t oy = 0; oy < oh; ++oy) {
            const int64_t y0 = oy * h / oh, y1 = ((oy + 1) * h + oh - 1) / oh;
            for (int64_t ox = 0; ox < ow; ++ox) {
              const int64_t x0 = ox * w / ow, x1 = ((ox + 1) * w + ow - 1) / ow;
              C sum = C(0);
              for (int64_t z = z0; z < z1; ++z) {
                for (int64_t y = y0; y < y1; ++y) {
                  for (int64_t x = x0; x < x1; ++x) {
                    sum += cast<C>(plane[z * is[b + 1] + y * is[b + 2] + x * is[b + 3]]);
                  }
                }
              }
              po[in_ * osn + ic * os[b] + oz * os[b + 1] + oy * os[b + 2] + ox * os[b + 3]] =
                  cast<S>(sum / C((z1 - z0) * (y1 - y0) * (x1 - x0)));
            }
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
