// 3-D pooling (video models): _adaptive_avg_pool3d. Inputs are 4-D (C, D, H, W) or 5-D
// (N, C, D, H, W) in any dim order.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// _adaptive_avg_pool3d.out(Tensor self, SymInt[3] output_size, *, Tensor(a!) out): output cell
// (z, y, x) averages input [floor(z*D/od), ceil((z+1)*D/od)) and likewise for H and W.
runtime::Tensor& adaptive_avg_pool3d_out(runtime::KernelRuntimeContext& ctx,
                                         const runtime::Tensor& self, IntList output_size,
                                         runtime::Tensor& out);

}  // namespace ember::kernels::portable
