// quantized_decomposed::embedding_byte.out, the int8 embedding of ExecuTorch's LLM flow
// (upstream's name and argument list): out[i, :] = (weight[indices[i], :] - zp) * scale, with
// weight int8 [V, D], weight_scales float32 [V] (one scale per row) or [V, G] (G groups of
// D / G columns per row), weight_zero_points null or float32 of the scales' shape; out float32
// [*indices.shape, D]. quant_min / quant_max are the range the weights were quantized to; a
// weight outside it fails. Indices are int64 or int32; one out of range fails naming it.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

runtime::Tensor& embedding_byte_out(runtime::KernelRuntimeContext& ctx,
                                    const runtime::Tensor& weight,
                                    const runtime::Tensor& weight_scales,
                                    const runtime::Tensor* weight_zero_points, int64_t quant_min,
                                    int64_t quant_max, const runtime::Tensor& indices,
                                    runtime::Tensor& out);

}  // namespace ember::kernels::portable
