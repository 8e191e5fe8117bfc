// Broadcasting comparison, logical and bitwise kernels (ATen out variants).
// Comparisons compute in the promoted dtype and store bool (or any out dtype);
// logical ops treat each input as "!= 0"; bitwise ops take integral or bool.
#pragma once

#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::Tensor;

#define EMBER_BINARY_DECL_(name)                                                            \
  Tensor& name##_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,    \
                            Tensor& out);                                                   \
  Tensor& name##_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,    \
                            Tensor& out);
EMBER_BINARY_DECL_(eq)
EMBER_BINARY_DECL_(ne)
EMBER_BINARY_DECL_(lt)
EMBER_BINARY_DECL_(le)
EMBER_BINARY_DECL_(gt)
EMBER_BINARY_DECL_(ge)
EMBER_BINARY_DECL_(bitwise_and)
EMBER_BINARY_DECL_(bitwise_or)
EMBER_BINARY_DECL_(bitwise_xor)
EMBER_BINARY_DECL_(bitwise_left_shift)
EMBER_BINARY_DECL_(bitwise_right_shift)
#undef EMBER_BINARY_DECL_

Tensor& logical_and_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& logical_or_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& logical_xor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);

}  // namespace ember::kernels::portable
