// aten::_unique2.out (torch.unique): the distinct values of a tensor, sorted ascending,
// with the optional inverse indices (input shape, int64) and counts (int64). The number of
// distinct values is data-dependent: `out` and `counts` are resized within their capacity
// (the upper bound planned for the unbacked size); more distinct values than that is an
// InvalidArgument naming the bound. No scratch memory: values are inserted into `out` in
// order, so `sorted=false` also returns them sorted (a valid order for torch.unique).
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

void unique2_out(KernelRuntimeContext& ctx, const Tensor& in, bool sorted, bool return_inverse,
                 bool return_counts, Tensor& out, Tensor& inverse, Tensor& counts);

}  // namespace ember::kernels::portable
