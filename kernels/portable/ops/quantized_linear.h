// The portable-8da8w / portable-8da4w recipes' linear layers: float activations quantized per
// row to int8 at run time, weights quantized at lowering (Ember's operators; docs/decisions.md):
//   ember_quantized::linear_8da8w.out(input f32 [..., K], weight int8 [N, K],
//       weight_scales f32 [N], bias f32 [N]?, out f32 [..., N])
//   ember_quantized::linear_8da4w.out(input f32 [..., K], weight uint8 [N, K / 2] (packed 4-bit,
//       util/qlinear.h), weight_scales f32 [N, K / group_size], group_size (32, 64 or 128;
//       K a multiple of it), bias f32 [N]?, out f32 [..., N])
// The math, the weight layout and the ISA paths are util/qlinear.h's. Temp memory: the input's
// int8 copy, its row scales and (4-bit) its sums per 32 columns.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

runtime::Tensor& linear_8da8w_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& input,
                                  const runtime::Tensor& weight,
                                  const runtime::Tensor& weight_scales,
                                  const runtime::Tensor* bias, runtime::Tensor& out);

runtime::Tensor& linear_8da4w_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& input,
                                  const runtime::Tensor& weight,
                                  const runtime::Tensor& weight_scales, int64_t group_size,
                                  const runtime::Tensor* bias, runtime::Tensor& out);

}  // namespace ember::kernels::portable
