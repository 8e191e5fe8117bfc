// ATen type promotion: promote_types (the lattice of torch.promote_types),
// result_type (tensors of rank > 0 outrank 0-dim tensors, which outrank Python
// scalars, unless a lower group holds a higher category: bool < integer <
// floating), and can_cast (out= rule: no floating -> integral, no non-bool ->
// bool). Only the dtypes kernels support (no complex, no unsigned > 8 bits).
#pragma once

#include "runtime/core/scalar.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/tensor.h"

namespace ember::kernels::portable {

using runtime::Scalar;
using runtime::ScalarType;
using runtime::Tensor;

// torch.promote_types(a, b).
ScalarType promote_types(ScalarType a, ScalarType b);

// The dtype a Python scalar stands for on its own: Bool, Long or Float.
ScalarType scalar_dtype(const Scalar& s);

// torch.result_type(a, b) for two tensors, and torch.result_type(a, scalar): the common cases
// inline (operands of one dtype; a non-bool tensor with an integer or bool scalar, which keeps
// the tensor's dtype), the rest out of line.
ScalarType result_type_general(const Tensor& a, const Tensor& b);
ScalarType result_type_general(const Tensor& a, const Scalar& b);
inline ScalarType result_type(const Tensor& a, const Tensor& b) {
  return a.scalar_type() == b.scalar_type() ? a.scalar_type() : result_type_general(a, b);
}
inline ScalarType result_type(const Tensor& a, const Scalar& b) {
  return a.scalar_type() != ScalarType::Bool && !b.is_floating_point()
             ? a.scalar_type()
             : result_type_general(a, b);
}
// torch.result_type over a tensor and two scalars (clamp).
ScalarType result_type(const Tensor& a, const Scalar& b, const Scalar& c);
// result_type of three tensors (where, clamp.Tensor, addcmul-like ops).
ScalarType result_type(const Tensor& a, const Tensor& b, const Tensor& c);

// torch.can_cast(from, to).
bool can_cast(ScalarType from, ScalarType to);

// 0 for bool, 1 for integral, 2 for floating.
int category(ScalarType t);

}  // namespace ember::kernels::portable
