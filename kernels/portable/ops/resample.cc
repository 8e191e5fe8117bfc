// Antialiased bilinear resize and grid sampling; see resample.h.
#include "kernels/portable/ops/resample.h"

#include <cmath>

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// At most this many input taps per output pixel and dim (a downscale by ~127x).
constexpr int64_t kMaxTaps = 256;

// Input/output ratio along one dim, as ATen's area_pixel_compute_scale.
template <typename C>
C aa_scale(int64_t in, int64_t out, bool align_corners, std::optional<double> scale) {
  if (align_corners) return out > 1 ? C(in - 1) / C(out - 1) : C(0);
  return scale.has_value() && *scale > 0 ? C(1.0 / *scale) : C(in) / C(out);
}

// The taps of output index `o`: first input index, count and normalised weights.
template <typename C>
bool aa_taps(int64_t o, int64_t in, C scale, int64_t* first, int64_t* count, C* w) {
  const C support = scale >= C(1) ? scale : C(1);  // triangle filter of half-width 1, widened
  const C inv = scale >= C(1) ? C(1) / scale : C(1);
  const C center = scale * (C(o) + C(0.5));
  int64_t lo = static_cast<int64_t>(center - support + C(0.5));
  if (lo < 0) lo = 0;
  int64_t hi = static_cast<int64_t>(center + support + C(0.5));
  if (hi > in) hi = in;
  if (hi - lo > kMaxTaps) return false;
  C total = 0;
  for (int64_t j = lo; j < hi; ++j) {
    const C x = (C(j) - center + C(0.5)) * inv;
    const C a = x < C(0) ? -x : x;
    w[j - lo] = a < C(1) ? C(1) - a : C(0);
    total += w[j - lo];
  }
  if (total != C(0)) {
    for (int64_t j = 0; j < hi - lo; ++j) w[j] /= total;
  }
  *first = lo;
  *count = hi - lo;
  return true;
}

}  // namespace

Tensor& upsample_bilinear2d_aa_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                                   bool align_corners, std::optional<double> scales_h,
                                   std::optional<double> scales_w, Tensor& out) {
  const char* op = "_upsample_bilinear2d_aa.out";
  if (in.dim() != 4 || output_size.size() != 2 || output_size[0] <= 0 || output_size[1] <= 0 ||
      in.size(2) <= 0 || in.size(3) <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: needs a 4-D input with positive sizes and 2 positive "
             "output sizes (got %zu dims, %zu sizes)", op, in.dim(), output_size.size());
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  const int64_t oh = output_size[0], ow = output_size[1];
  const SizesType shape[4] = {in.size(0), in.size(1), static_cast<SizesType>(oh),
                              static_cast<SizesType>(ow)};
  if (!resize_out(ctx, out, {shape, 4}, op)) return out;
  bool too_wide = false;
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const auto is = in.strides();
    const auto os = out.strides();
    const C sh = aa_scale<C>(in.size(2), oh, align_corners, scales_h);
    const C sw = aa_scale<C>(in.size(3), ow, align_corners, scales_w);
    C wy[kMaxTaps], wx[kMaxTaps];
    for (int64_t oy = 0; oy < oh && !too_wide; ++oy) {
      int64_t y0, ny;
      if (!aa_taps<C>(oy, in.size(2), sh, &y0, &ny, wy)) {
        too_wide = true;
        break;
      }
      for (int64_t ox = 0; ox < ow; ++ox) {
        int64_t x0, nx;
        if (!aa_taps<C>(ox, in.size(3), sw, &x0, &nx, wx)) {
          too_wide = true;
          break;
        }
        for (int64_t n = 0; n < in.size(0); ++n) {
          for (int64_t c = 0; c < in.size(1); ++c) {
            const S* p = pi + n * is[0] + c * is[1];
            C acc = 0;
            for (int64_t j = 0; j < ny; ++j) {  // horizontal pass per row, then vertical
              const S* row = p + (y0 + j) * is[2];
              C r = 0;
              for (int64_t k = 0; k < nx; ++k) r += wx[k] * cast<C>(row[(x0 + k) * is[3]]);
              acc += wy[j] * r;
            }
            po[n * os[0] + c * os[1] + oy * os[2] + ox * os[3]] = cast<S>(acc);
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  if (too_wide) {
    ctx.fail(Error::NotSupported, "%s: a downscale needing more than %lld input taps per output",
             op, static_cast<long long>(kMaxTaps));
  }
  return out;
}

namespace {

// Grid coordinate in [-1, 1] -> input pixel coordinate.
template <typename C>
C unnormalize(C coord, int64_t size, bool align_corners) {
  return align_corners ? (coord + C(1)) / C(2) * C(size - 1)
                       : ((coord + C(1)) * C(size) - C(1)) / C(2);
}

template <typename C>
C clip(C x, int64_t size) {
  const C hi = C(size - 1);
  return x < C(0) ? C(0) : (x > hi ? hi : x);
}

// Reflects x into [lo2/2, hi2/2] (bounds given doubled so half-pixel edges stay exact).
template <typename C>
C reflect(C x, int64_t lo2, int64_t hi2) {
  if (lo2 == hi2) return C(0);
  const C lo = C(lo2) / C(2), span = C(hi2 - lo2) / C(2);
  x = std::fabs(x - lo);
  const C extra = std::fmod(x, span);
  const int64_t flips = static_cast<int64_t>(std::floor(x / span));
  return flips % 2 == 0 ? extra + lo : span - extra + lo;
}

template <typename C>
C source_coord(C coord, int64_t size, int64_t padding, bool align_corners) {
  C x = unnormalize(coord, size, align_corners);
  if (padding == 1) return clip(x, size);
  if (padding == 2) {
    x = align_corners ? reflect(x, 0, 2 * (size - 1)) : reflect(x, -1, 2 * size - 1);
    return clip(x, size);
  }
  return x;
}

}  // namespace

Tensor& grid_sampler_2d_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& grid,
                            int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
                            Tensor& out) {
  const char* op = "grid_sampler_2d.out";
  if (in.dim() != 4 || grid.dim() != 4 || grid.size(3) != 2 || grid.size(0) != in.size(0)) {
    ctx.fail(Error::InvalidArgument, "%s: input must be [N,C,H,W] and grid [N,OH,OW,2] with the "
             "same N (got %zu-D input, %zu-D grid)", op, in.dim(), grid.dim());
    return out;
  }
  if (interpolation_mode != 0 && interpolation_mode != 1) {
    ctx.fail(interpolation_mode == 2 ? Error::NotSupported : Error::InvalidArgument,
             "%s: interpolation_mode %lld (0 bilinear and 1 nearest are supported)", op,
             static_cast<long long>(interpolation_mode));
    return out;
  }
  if (padding_mode < 0 || padding_mode > 2) {
    ctx.fail(Error::InvalidArgument, "%s: padding_mode %lld (0 zeros, 1 border, 2 reflection)",
             op, static_cast<long long>(padding_mode));
    return out;
  }
  if (!check_dtype(ctx, grid, in.scalar_type(), op, "grid") ||
      !check_dtype(ctx, out, in.scalar_type(), op, "out")) {
    return out;
  }
  const SizesType shape[4] = {in.size(0), in.size(1), grid.size(1), grid.size(2)};
  if (!resize_out(ctx, out, {shape, 4}, op)) return out;
  const bool ok = dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    const S* pg = grid.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const auto is = in.strides();
    const auto gs = grid.strides();
    const auto os = out.strides();
    const int64_t h = in.size(2), w = in.size(3);
    auto at = [&](const S* plane, int64_t y, int64_t x) -> C {
      return y >= 0 && y < h && x >= 0 && x < w ? cast<C>(plane[y * is[2] + x * is[3]]) : C(0);
    };
    for (int64_t n = 0; n < in.size(0); ++n) {
      for (int64_t oy = 0; oy < grid.size(1); ++oy) {
        for (int64_t ox = 0; ox < grid.size(2); ++ox) {
          const S* g = pg + n * gs[0] + oy * gs[1] + ox * gs[2];
          const C ix = source_coord(cast<C>(g[0]), w, padding_mode, align_corners);
          const C iy = source_coord(cast<C>(g[gs[3]]), h, padding_mode, align_corners);
          for (int64_t c = 0; c < in.size(1); ++c) {
            const S* plane = pi + n * is[0] + c * is[1];
            C v;
            if (interpolation_mode == 1) {
              v = at(plane, static_cast<int64_t>(std::nearbyint(iy)),
                     static_cast<int64_t>(std::nearbyint(ix)));
            } else {
              const C fx = std::floor(ix), fy = std::floor(iy);
              const int64_t x0 = static_cast<int64_t>(fx), y0 = static_cast<int64_t>(fy);
              const C tx = ix - fx, ty = iy - fy;
              v = at(plane, y0, x0) * (C(1) - tx) * (C(1) - ty) + at(plane, y0, x0 + 1) * tx * (C(1) - ty) +
                  at(plane, y0 + 1, x0) * (C(1) - tx) * ty + at(plane, y0 + 1, x0 + 1) * tx * ty;
            }
            po[n * os[0] + c * os[1] + oy * os[2] + ox * os[3]] = cast<S>(v);
          }
        }
      }
    }
  });
  if (!ok) fail_dtype(ctx, in, op, "input");
  return out;
}

}  // namespace ember::kernels::portable
