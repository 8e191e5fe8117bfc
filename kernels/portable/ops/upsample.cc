// Resampling kernels; see upsample.h.
#include "kernels/portable/ops/upsample.h"

#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

struct Resize {
  int64_t oh = 0, ow = 0;
  double sh = 0, sw = 0;  // scale factors given by the caller (0 = none)
};

bool output_geometry(KernelRuntimeContext& ctx, const Tensor& in, std::optional<IntList> size,
                     std::optional<DoubleList> scales, Resize* r, Tensor& out, const char* op) {
  if (in.dim() != 4) {
    ctx.fail(Error::InvalidArgument, "%s: input must be 4-D, got %zu dims", op, in.dim());
    return false;
  }
  const bool has_size = size.has_value() && size->size() > 0;
  const bool has_scales = scales.has_value() && scales->size() > 0;
  if (has_size == has_scales) {
    ctx.fail(Error::InvalidArgument, "%s: exactly one of output_size and scale_factors", op);
    return false;
  }
  if (has_size) {
    if (size->size() != 2) {
      ctx.fail(Error::InvalidArgument, "%s: output_size must have 2 values", op);
      return false;
    }
    r->oh = (*size)[0];
    r->ow = (*size)[1];
  } else {
    if (scales->size() != 2) {
      ctx.fail(Error::InvalidArgument, "%s: scale_factors must have 2 values", op);
      return false;
    }
    r->sh = (*scales)[0];
    r->sw = (*scales)[1];
    r->oh = static_cast<int64_t>(std::floor(double(in.size(2)) * r->sh));
    r->ow = static_cast<int64_t>(std::floor(double(in.size(3)) * r->sw));
  }
  if (r->oh <= 0 || r->ow <= 0 || in.size(2) <= 0 || in.size(3) <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: input and output sizes must be positive", op);
    return false;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return false;
  const SizesType shape[4] = {in.size(0), in.size(1), static_cast<SizesType>(r->oh),
                              static_cast<SizesType>(r->ow)};
  return resize_out(ctx, out, {shape, 4}, op);
}

// input/output ratio in C (or 1/scale when the caller gave one).
template <typename C>
C ratio(int64_t in, int64_t out, double scale, bool align_corners) {
  if (align_corners) return out > 1 ? C(in - 1) / C(out - 1) : C(0);
  return scale > 0 ? C(1.0 / scale) : C(in) / C(out);
}

template <typename C>
int64_t nearest(int64_t o, int64_t in, int64_t out, double scale) {
  if (in == out) return o;
  if (out == 2 * in) return o >> 1;
  const C s = ratio<C>(in, out, scale, false);
  const int64_t i = static_cast<int64_t>(std::floor(C(o) * s));
  return i < in - 1 ? i : in - 1;
}

// Bilinear source: index i0, i1 and weight of i1.
template <typename C>
void linear_source(int64_t o, int64_t in, C ratio_v, bool align_corners, int64_t* i0, int64_t* i1,
                   C* w1) {
  C src = align_corners ? C(o) * ratio_v : (C(o) + C(0.5)) * ratio_v - C(0.5);
  if (src < C(0)) src = C(0);
  *i0 = static_cast<int64_t>(src);
  *i1 = *i0 + (*i0 < in - 1 ? 1 : 0);
  *w1 = src - C(*i0);
}

}  // namespace

Tensor& upsample_nearest2d_vec_out(KernelRuntimeContext& ctx, const Tensor& in,
                                   std::optional<IntList> output_size,
                                   std::optional<DoubleList> scale_factors, Tensor& out) {
  const char* op = "upsample_nearest2d.vec_out";
  Resize r;
  if (!output_geometry(ctx, in, output_size, scale_factors, &r, out, op)) return out;
  const bool ok = dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = std::conditional_t<std::is_same<S, double>::value, double, float>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const auto is = in.strides();
    const auto os = out.strides();
    for (int64_t n = 0; n < in.size(0); ++n) {
      for (int64_t c = 0; c < in.size(1); ++c) {
        for (int64_t oy = 0; oy < r.oh; ++oy) {
          const int64_t iy = nearest<C>(oy, in.size(2), r.oh, r.sh);
          for (int64_t ox = 0; ox < r.ow; ++ox) {
            const int64_t ix = nearest<C>(ox, in.size(3), r.ow, r.sw);
            po[n * os[0] + c * os[1] + oy * os[2] + ox * os[3]] =
                pi[n * is[0] + c * is[1] + iy * is[2] + ix * is[3]];
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

Tensor& upsample_bilinear2d_vec_out(KernelRuntimeContext& ctx, const Tensor& in,
                                    std::optional<IntList> output_size, bool align_corners,
                                    std::optional<DoubleList> scale_factors, Tensor& out) {
  const char* op = "upsample_bilinear2d.vec_out";
  Resize r;
  if (!output_geometry(ctx, in, output_size, scale_factors, &r, out, op)) return out;
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const auto is = in.strides();
    const auto os = out.strides();
    const C rh = ratio<C>(in.size(2), r.oh, r.sh, align_corners);
    const C rw = ratio<C>(in.size(3), r.ow, r.sw, align_corners);
    // Source columns of a chunk of output columns, computed once per chunk; then
    // every plane's rows of that chunk (same arithmetic per element as one
    // output at a time, in a cache-friendly order).
    constexpr int64_t kChunk = 256;
    int64_t x0s[kChunk], x1s[kChunk];
    C wxs[kChunk];
    for (int64_t ox0 = 0; ox0 < r.ow; ox0 += kChunk) {
      const int64_t cw = r.ow - ox0 < kChunk ? r.ow - ox0 : kChunk;
      for (int64_t t = 0; t < cw; ++t) {
        linear_source<C>(ox0 + t, in.size(3), rw, align_corners, &x0s[t], &x1s[t], &wxs[t]);
        x0s[t] *= is[3];
        x1s[t] *= is[3];
      }
      for (int64_t n = 0; n < in.size(0); ++n) {
        for (int64_t c = 0; c < in.size(1); ++c) {
          const S* p = pi + n * is[0] + c * is[1];
          S* q = po + n * os[0] + c * os[1] + ox0 * os[3];
          for (int64_t oy = 0; oy < r.oh; ++oy) {
            int64_t y0, y1;
            C wy;
            linear_source<C>(oy, in.size(2), rh, align_corners, &y0, &y1, &wy);
            const S* r0 = p + y0 * is[2];
            const S* r1 = p + y1 * is[2];
            S* qo = q + oy * os[2];
            for (int64_t t = 0; t < cw; ++t) {
              const C wx = wxs[t];
              const C v00 = cast<C>(r0[x0s[t]]), v01 = cast<C>(r0[x1s[t]]);
              const C v10 = cast<C>(r1[x0s[t]]), v11 = cast<C>(r1[x1s[t]]);
              const C v = (C(1) - wy) * ((C(1) - wx) * v00 + wx * v01) + wy * ((C(1) - wx) * v10 + wx * v11);
              qo[t * os[3]] = cast<S>(v);
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
