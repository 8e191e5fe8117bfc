// _softmax and _log_softmax (declared in pool.h): per lane along `dim`, a max
// pass, a sum-of-exp pass and a write pass; computed in float (double for
// float64) like ATen. float32 lanes that are contiguous in input and out (softmax over
// the last dim) use the vectorised exp of util/vec_math.h: one pass writes exp(x - max)
// and sums it, one more scales (softmax) or the output is x - max - log(sum).
#include <cmath>

#include "kernels/portable/ops/pool.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/reduce.h"
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::ScalarType;

template <bool kLog>
Tensor& softmax_impl(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                     bool half_to_float, Tensor& out, const char* op) {
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  const ScalarType want = half_to_float ? ScalarType::Float : in.scalar_type();
  if (half_to_float && in.scalar_type() != ScalarType::Half) {
    ctx.fail(Error::InvalidArgument, "%s: half_to_float needs a float16 input", op);
    return out;
  }
  if (!runtime::is_floating_point(in.scalar_type())) {
    fail_dtype(ctx, in, op, "input");
    return out;
  }
  if (!check_dtype(ctx, out, want, op, "out") || !resize_like(ctx, out, in, op)) return out;
  if (in.numel() == 0) return out;
  const int64_t n = in.dim() == 0 ? 1 : in.size(dim);
  dispatch<kAllFloats>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* pi = in.const_data_ptr<S>();
    const StoreFn<C> store = storer<C>(out.scalar_type());
    void* po = out.mutable_data_ptr();
    for_each_lane(in, out, size_t(dim), [&](int64_t io, int64_t oo, int64_t is, int64_t os) {
      C mx = cast<C>(pi[io]);
      for (int64_t i = 1; i < n; ++i) {
        const C v = cast<C>(pi[io + i * is]);
        mx = (v > mx || std::isnan(v)) ? v : mx;
      }
      if (std::isinf(mx) && mx < 0) mx = C(0);  // all -inf: keep exp() finite
      if constexpr (std::is_same<S, float>::value) {
        if (is == 1 && os == 1 && out.scalar_type() == ScalarType::Float) {
          const VecMath& vm = vec_math();
          float* y = static_cast<float*>(po) + oo;
          const float* x = pi + io;
          if (kLog) {
            // exp(x - max) goes to y as scratch; then y = x - max - log(sum).
            const float log_sum = std::log(vm.exp_shift_sum(x, mx, y, n));
            for (int64_t i = 0; i < n; ++i) y[i] = x[i] - mx - log_sum;
          } else {
            const float sum = vm.exp_shift_sum(x, mx, y, n);
            vm.scale(y, 1.0f / sum, y, n);
          }
          return;
        }
      }
      C sum = C(0);
      for (int64_t i = 0; i < n; ++i) sum += std::exp(cast<C>(pi[io + i * is]) - mx);
      if (kLog) {
        const C log_sum = std::log(sum);
        for (int64_t i = 0; i < n; ++i) {
          store(po, oo + i * os, cast<C>(pi[io + i * is]) - mx - log_sum);
        }
      } else {
        const C inv = C(1) / sum;
        for (int64_t i = 0; i < n; ++i) {
          store(po, oo + i * os, std::exp(cast<C>(pi[io + i * is]) - mx) * inv);
        }
      }
    });
  });
  return out;
}

}  // namespace

Tensor& softmax_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool half_to_float,
                    Tensor& out) {
  return softmax_impl<false>(ctx, in, dim, half_to_float, out, "_softmax.out");
}

Tensor& log_softmax_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        bool half_to_float, Tensor& out) {
  return softmax_impl<true>(ctx, in, dim, half_to_float, out, "_log_softmax.out");
}

}  // namespace ember::kernels::portable
