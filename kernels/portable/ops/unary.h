// Elementwise unary kernels (ATen out variants): math functions (integral
// inputs give float32, as in ATen), rounding, sign/abs/neg, predicates (isnan,
// isinf), logical_not, bitwise_not.
#pragma once

#include <optional>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

#define EMBER_UNARY_DECL_(name) \
  Tensor& name##_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
// Float-valued math (int/bool inputs compute in float32).
EMBER_UNARY_DECL_(acos)
EMBER_UNARY_DECL_(acosh)
EMBER_UNARY_DECL_(asin)
EMBER_UNARY_DECL_(asinh)
EMBER_UNARY_DECL_(atan)
EMBER_UNARY_DECL_(atanh)
EMBER_UNARY_DECL_(cos)
EMBER_UNARY_DECL_(cosh)
EMBER_UNARY_DECL_(erf)
EMBER_UNARY_DECL_(exp)
EMBER_UNARY_DECL_(expm1)
EMBER_UNARY_DECL_(log)
EMBER_UNARY_DECL_(log10)
EMBER_UNARY_DECL_(log1p)
EMBER_UNARY_DECL_(log2)
EMBER_UNARY_DECL_(reciprocal)
EMBER_UNARY_DECL_(rsqrt)
EMBER_UNARY_DECL_(sigmoid)
EMBER_UNARY_DECL_(sin)
EMBER_UNARY_DECL_(sinh)
EMBER_UNARY_DECL_(sqrt)
EMBER_UNARY_DECL_(tan)
EMBER_UNARY_DECL_(tanh)
// Same-dtype ops.
EMBER_UNARY_DECL_(abs)
EMBER_UNARY_DECL_(neg)
EMBER_UNARY_DECL_(sign)
EMBER_UNARY_DECL_(ceil)
EMBER_UNARY_DECL_(floor)
EMBER_UNARY_DECL_(round)
EMBER_UNARY_DECL_(trunc)
EMBER_UNARY_DECL_(bitwise_not)
// Predicates and logical ops (out may be any dtype).
EMBER_UNARY_DECL_(isnan)
EMBER_UNARY_DECL_(isinf)
EMBER_UNARY_DECL_(logical_not)
#undef EMBER_UNARY_DECL_

Tensor& logit_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<double> eps,
                  Tensor& out);

}  // namespace ember::kernels::portable
