// Copy and factory kernels (ATen/ExecuTorch out variants): clone, _to_copy,
// dim_order_ops::_to_dim_order_copy / _clone_dim_order / _empty_dim_order,
// copy, copy_, alias/detach/lift_fresh copies, et_copy h2d/d2h, fill, full,
// full_like, zeros, ones, empty, scalar_tensor, arange. Copies convert dtypes
// and write out in its own dim order.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::Tensor;
using OptInt = std::optional<int64_t>;
using OptIntList = std::optional<IntList>;

Tensor& clone_out(KernelRuntimeContext& ctx, const Tensor& in, OptInt memory_format,
                  Tensor& out);
Tensor& to_copy_out(KernelRuntimeContext& ctx, const Tensor& in, bool non_blocking,
                    OptInt memory_format, Tensor& out);
Tensor& to_dim_order_copy_out(KernelRuntimeContext& ctx, const Tensor& in, bool non_blocking,
                              OptIntList dim_order, Tensor& out);
Tensor& clone_dim_order_out(KernelRuntimeContext& ctx, const Tensor& in, bool non_blocking,
                            OptIntList dim_order, Tensor& out);
Tensor& empty_dim_order_out(KernelRuntimeContext& ctx, IntList size, OptIntList dim_order,
                            Tensor& out);
Tensor& copy_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src,
                 bool non_blocking, Tensor& out);
Tensor& copy_inplace(KernelRuntimeContext& ctx, Tensor& self, const Tensor& src,
                     bool non_blocking);
// alias_copy, detach_copy, lift_fresh_copy, et_copy::_h2d_copy / _d2h_copy.
Tensor& plain_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& fill_scalar_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& value,
                        Tensor& out);
Tensor& fill_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& value,
                        Tensor& out);
Tensor& full_out(KernelRuntimeContext& ctx, IntList size, const Scalar& value, Tensor& out);
Tensor& full_like_out(KernelRuntimeContext& ctx, const Tensor& in, const Scalar& value,
                      OptInt memory_format, Tensor& out);
Tensor& zeros_out(KernelRuntimeContext& ctx, IntList size, Tensor& out);
Tensor& ones_out(KernelRuntimeContext& ctx, IntList size, Tensor& out);
Tensor& empty_out(KernelRuntimeContext& ctx, IntList size, OptInt memory_format, Tensor& out);
// empty_strided.out(SymInt[] size, SymInt[] stride, *, out): out resized to `size`, contents
// unspecified. The strides are checked for rank only: out's layout is the dim order the AoT
// planned (Ember tensors are dense; a program that reads the strides back gets those).
Tensor& empty_strided_out(KernelRuntimeContext& ctx, IntList size, IntList stride, Tensor& out);
Tensor& scalar_tensor_out(KernelRuntimeContext& ctx, const Scalar& value, Tensor& out);
Tensor& arange_out(KernelRuntimeContext& ctx, const Scalar& end, Tensor& out);
Tensor& arange_start_out(KernelRuntimeContext& ctx, const Scalar& start, const Scalar& end,
                         const Scalar& step, Tensor& out);

}  // namespace ember::kernels::portable
