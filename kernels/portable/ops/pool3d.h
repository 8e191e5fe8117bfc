// 3-D pooling (video models): max_pool3d_with_indices, avg_pool3d, _adaptive_avg_pool3d. Inputs are 4-D (C, D, H, W) or 5-D
// (N, C, D, H, W) in any dim order.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// max_pool3d_with_indices.out(self, kernel_size[3], stride[3]=[] (= kernel), padding[3]=0,
// dilation[3]=1, ceil_mode=False, *, out, indices): the first maximum of each window (a NaN
// wins), its index flat over the input's (D, H, W).
void max_pool3d_with_indices_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& self,
                                 IntList kernel_size, IntList stride, IntList padding,
                                 IntList dilation, bool ceil_mode, runtime::Tensor& out,
                                 runtime::Tensor& indices);
// avg_pool3d.out(self, kernel_size[3], stride[3]=[], padding[3]=0, ceil_mode=False,
// count_include_pad=True, divisor_override=None, *, out): integer dtypes divide with truncation.
runtime::Tensor& avg_pool3d_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& self,
                                IntList kernel_size, IntList stride, IntList padding,
                                bool ceil_mode, bool count_include_pad,
                                std::optional<int64_t> divisor_override, runtime::Tensor& out);

// _adaptive_avg_pool3d.out(Tensor self, SymInt[3] output_size, *, Tensor(a!) out): output cell
// (z, y, x) averages input [floor(z*D/od), ceil((z+1)*D/od)) and likewise for H and W.
runtime::Tensor& adaptive_avg_pool3d_out(runtime::KernelRuntimeContext& ctx,
                                         const runtime::Tensor& self, IntList output_size,
                                         runtime::Tensor& out);

}  // namespace ember::kernels::portable
