// Padding kernels (ATen out variants): constant_pad_nd (negative pads crop),
// reflection_pad{1,2,3}d and replication_pad{1,2,3}d.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::Tensor;

Tensor& constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                            const Scalar& value, Tensor& out);
Tensor& reflection_pad1d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out);
Tensor& reflection_pad2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out);
Tensor& reflection_pad3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out);
Tensor& replication_pad1d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out);
Tensor& replication_pad2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out);
Tensor& replication_pad3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out);

}  // namespace ember::kernels::portable
