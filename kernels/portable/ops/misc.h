// Remaining ATen out variants: _conj_physical (a copy for real dtypes),
// native_dropout (inference, or training with p = 0 / 1; other training
// probabilities need a random generator and fail NotSupported), _cdist_forward,
// _pdist_forward and max_pool2d_with_indices_backward.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

Tensor& conj_physical_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
void native_dropout_out(KernelRuntimeContext& ctx, const Tensor& in, double p,
                        std::optional<bool> train, Tensor& out, Tensor& mask);
Tensor& cdist_forward_out(KernelRuntimeContext& ctx, const Tensor& x1, const Tensor& x2, double p,
                          std::optional<int64_t> compute_mode, Tensor& out);
Tensor& pdist_forward_out(KernelRuntimeContext& ctx, const Tensor& in, double p, Tensor& out);
Tensor& max_pool2d_with_indices_backward_out(KernelRuntimeContext& ctx, const Tensor& grad_output,
                                             const Tensor& in, IntList kernel_size,
                                             IntList stride, IntList padding, IntList dilation,
                                             bool ceil_mode, const Tensor& indices,
                                             Tensor& grad_input);

}  // namespace ember::kernels::portable
