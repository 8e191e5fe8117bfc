// aten::convolution.out: 1-D and 2-D convolution with stride, padding,
// dilation and groups, and transposed convolution, for any input/output dim
// order (NCHW or channels-last). float32 runs as a GEMM that reads the weights
// in place: over a zero-padded (phase-split for strides) input copy in temp
// memory that the GEMM also reads in place (conv_padded.cc), or as implicit
// GEMM with im2col packed straight into the GEMM's panels (conv_fast.cc; 1x1
// convs read the input directly), or, for depthwise convs, as a direct loop over
// output rows; other dtypes and transposed convs use a reference loop. 5-D inputs (3-D
// convolution, video models) go to conv3d_out (conv3d.cc), a reference loop for any float
// dtype, transposed or not.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

Tensor& convolution_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                        const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                        bool transposed, IntList output_padding, int64_t groups, Tensor& out);
Tensor& conv3d_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& weight,
                   const Tensor* bias, IntList stride, IntList padding, IntList dilation,
                   bool transposed, IntList output_padding, int64_t groups, Tensor& out);

}  // namespace ember::kernels::portable
