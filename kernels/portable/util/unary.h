// The driver every elementwise unary op shares: check out's dtype, resize out
// to the input's shape, dispatch on the compute dtype and run map_unary with
// the lambda `make(TypeTag<S>)` returns. Also float_result_type(): the dtype
// of ops like exp or sin (integral and bool inputs give float32).
#pragma once

#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/elementwise.h"
#include "kernels/portable/util/promote.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

inline ScalarType float_result_type(ScalarType t) {
  return runtime::is_floating_point(t) ? t : ScalarType::Float;
}

// out = f(in) computed in `compute` (one of Families); the result is cast to
// out's dtype, which must be castable from `compute` (or anything when
// kBoolResult: predicates like isnan store bool).
template <unsigned Families, bool kBoolResult = false, typename Make>
Tensor& unary_op(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, ScalarType compute,
                 const char* op, Make make) {
  if (!kBoolResult && !check_out_dtype(ctx, out, compute, op)) return out;
  if (!resize_like(ctx, out, in, op)) return out;
  const bool ok = dispatch<Families>(compute, [&](auto tag) {
    using S = typename decltype(tag)::type;
    using So = std::conditional_t<kBoolResult, bool, S>;
    map_unary<compute_t<S>, S, So>(in, out, make(tag));
  });
  if (!ok) {
    ctx.fail(runtime::Error::InvalidType, "%s: unsupported dtype %s", op,
             runtime::scalar_type_name(in.scalar_type()));
  }
  return out;
}

}  // namespace ember::kernels::portable
