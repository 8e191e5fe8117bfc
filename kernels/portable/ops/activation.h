// Activation and selection kernels (ATen out variants): relu, hardtanh,
// clamp (Scalar and Tensor bounds), leaky_relu, elu, gelu, hardswish,
// hardsigmoid, silu, glu, where, masked_fill.
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

Tensor& relu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& hardtanh_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& min_val,
                     const Scalar& max_val, Tensor& out);
Tensor& clamp_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<Scalar> min,
                  std::optional<Scalar> max, Tensor& out);
Tensor& clamp_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* min,
                         const Tensor* max, Tensor& out);
Tensor& leaky_relu_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& slope,
                       Tensor& out);
Tensor& elu_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& alpha,
                const Scalar& scale, const Scalar& input_scale, Tensor& out);
Tensor& gelu_out(KernelRuntimeContext& ctx, const Tensor& in, std::string_view approximate,
                 Tensor& out);
Tensor& hardswish_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& hardsigmoid_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& silu_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& glu_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out);
Tensor& where_out(KernelRuntimeContext& ctx, const Tensor& cond, const Tensor& a,
                  const Tensor& b, Tensor& out);
Tensor& masked_fill_scalar_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                               const Scalar& value, Tensor& out);

}  // namespace ember::kernels::portable
