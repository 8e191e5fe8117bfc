// sort along one dim (aten::sort.values): values and the int64 indices they came from.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// sort.values(Tensor self, int dim=-1, bool descending=False, *, Tensor(a!) values,
// Tensor(b!) indices). Stable: equal values keep their input order (a valid result of torch's
// default stable=False too, which orders ties in long rows its own way);
// NaN sorts as the largest value (last ascending, first descending). Sorts each lane in
// scratch memory from ctx.allocate_temp (16 bytes per element of the dim); without a temp
// allocator it sorts in the outputs by insertion (O(n^2) per lane).
void sort_values(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& self, int64_t dim,
                 bool descending, runtime::Tensor& values, runtime::Tensor& indices);

}  // namespace ember::kernels::portable
