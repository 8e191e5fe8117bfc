// Pooling and softmax kernels (ATen out variants): max_pool2d_with_indices,
// avg_pool2d, _adaptive_avg_pool2d, _softmax, _log_softmax. Inputs are 3-D
// (C, H, W) or 4-D (N, C, H, W) in any dim order.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

void max_pool2d_with_indices_out(KernelRuntimeContext& ctx, const Tensor& in,
                                 IntList kernel_size, IntList stride, IntList padding,
                                 IntList dilation, bool ceil_mode, Tensor& out,
                                 Tensor& indices);
Tensor& avg_pool2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList kernel_size,
                       IntList stride, IntList padding, bool ceil_mode, bool count_include_pad,
                       std::optional<int64_t> divisor_override, Tensor& out);
Tensor& adaptive_avg_pool2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                                Tensor& out);
Tensor& softmax_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool half_to_float,
                    Tensor& out);
Tensor& log_softmax_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        bool half_to_float, Tensor& out);

}  // namespace ember::kernels::portable
