// The float32 fast path of the exp-based activations: when input and out are float32 and
// out takes the input's shape and layout (the planned case), one call of a util/vec_math.h
// row function over the flat data.
#pragma once

#include "kernels/portable/util/tensor_util.h"
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {

using VecRowFn = void (*)(const float* x, float* y, int64_t n);

// True when it handled the call (out written, or an error reported on ctx); false leaves
// the call to the generic path (other dtypes, layouts that differ).
inline bool vec_unary_f32(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out,
                          const char* op, VecRowFn fn) {
  if (in.scalar_type() != runtime::ScalarType::Float ||
      out.scalar_type() != runtime::ScalarType::Float) {
    return false;
  }
  if (!resize_like(ctx, out, in, op)) return true;
  if (!same_layout(in, out)) return false;
  fn(in.const_data_ptr<float>(), out.mutable_data_ptr<float>(), int64_t(in.numel()));
  return true;
}

}  // namespace ember::kernels::portable
