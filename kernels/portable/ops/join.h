// Joining and scattering into slices (ATen out variants): cat, stack,
// select_scatter, slice_scatter.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;
using runtime::TensorList;

Tensor& cat_out(KernelRuntimeContext& ctx, TensorList tensors, int64_t dim, Tensor& out);
Tensor& stack_out(KernelRuntimeContext& ctx, TensorList tensors, int64_t dim, Tensor& out);
Tensor& select_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src,
                           int64_t dim, int64_t index, Tensor& out);
Tensor& slice_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src,
                          int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                          int64_t step, Tensor& out);

}  // namespace ember::kernels::portable
