// 3-D convolution (video nets: r3d, mc3, r(2+1)d) for aten::convolution.out with rank-5
// float32 input and weight [C_out, C_in / groups, kT, kH, kW]: a direct loop over the output
// with stride, padding, dilation and groups, any input/weight/output strides. Not transposed.
// Accumulates in float in (c_in, kt, kh, kw) order, one multiply and one add per tap.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// Checks the arguments, resizes `out` to [N, C_out, T', H', W'] and computes; on a bad
// argument it fails `ctx` with a message naming it and returns.
void conv3d_f32(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& in,
                const runtime::Tensor& weight, const runtime::Tensor* bias, IntList stride,
                IntList padding, IntList dilation, bool transposed, int64_t groups,
                runtime::Tensor& out);

}  // namespace ember::kernels::portable
