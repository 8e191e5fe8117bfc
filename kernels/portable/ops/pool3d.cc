// _adaptive_avg_pool3d (see pool3d.h).
#include "kernels/portable/ops/pool3d.h"

#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::Tensor;

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
