// The aarch64 NEON path of float32 add, sub, mul and div with broadcasting, tried by
// binary_op (util/binary.h) after the out tensor is resized. It takes row-major float
// tensors where one operand has out's shape and the other repeats along leading and/or
// trailing dims (a scalar, a bias row [C] against [N, C], a channel column [N, C, 1, 1] or
// [1, C, 1, 1] against [N, C, H, W], or the same shape); anything else returns false and
// the generic loops run. Same arithmetic as the portable lambdas (x + alpha y, x - alpha y,
// x y, x / y, each rounded separately), so the same bits. On other targets the inline
// stub returns false and compiles away.
#pragma once

#include "runtime/core/tensor.h"

namespace ember::kernels::portable {

enum class BinaryF32Op { Add, Sub, Mul, Div };

#if defined(__aarch64__) && defined(__ARM_NEON)
// out = a op b (Add, Sub: a op alpha b). True when it wrote out (counted as
// NeonPath::Binary); false, with nothing written, when the dtypes or layouts do not fit.
bool binary_f32_neon(BinaryF32Op op, float alpha, const runtime::Tensor& a,
                     const runtime::Tensor& b, runtime::Tensor& out);
#else
inline bool binary_f32_neon(BinaryF32Op, float, const runtime::Tensor&, const runtime::Tensor&,
                            runtime::Tensor&) {
  return false;
}
#endif

}  // namespace ember::kernels::portable
