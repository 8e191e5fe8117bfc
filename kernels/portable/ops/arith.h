// Broadcasting arithmetic kernels (ATen out variants): add, sub, mul, div (all
// rounding modes), rsub, pow, fmod, remainder, floor_divide, atan2, maximum,
// minimum. ATen type promotion; out may be any dtype the result can be cast to.
// Integer division or modulo by zero fails with InvalidArgument.
#pragma once

#include <optional>
#include <string_view>

#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::Tensor;
using Mode = std::optional<std::string_view>;

Tensor& add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha,
                Tensor& out);
Tensor& add_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out);
Tensor& sub_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, const Scalar& alpha,
                Tensor& out);
Tensor& sub_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                       const Scalar& alpha, Tensor& out);
Tensor& rsub_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                        const Scalar& alpha, Tensor& out);
Tensor& mul_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& mul_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out);
Tensor& div_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& div_out_mode(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Mode mode,
                     Tensor& out);
Tensor& div_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out);
Tensor& div_scalar_mode_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                            Mode mode, Tensor& out);
Tensor& floor_divide_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                         Tensor& out);
Tensor& fmod_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& fmod_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b, Tensor& out);
Tensor& remainder_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                             Tensor& out);
Tensor& remainder_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                             Tensor& out);
Tensor& pow_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                              Tensor& out);
Tensor& pow_tensor_scalar_out(KernelRuntimeContext& ctx, const Tensor& a, const Scalar& b,
                              Tensor& out);
Tensor& pow_scalar_out(KernelRuntimeContext& ctx, const Scalar& a, const Tensor& b, Tensor& out);
Tensor& atan2_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& maximum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& minimum_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);

}  // namespace ember::kernels::portable
