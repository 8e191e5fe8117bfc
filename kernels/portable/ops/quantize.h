// Kernels of the quantized_decomposed ops that PT2E-quantized programs contain
// (convert_pt2e output): affine quantization to uint8/int8/int16/int32 storage per tensor
// and per channel, dequantization back to floating point, and choose_qparams (per-tensor
// affine parameters from the data's min and max, for dynamic quantization).
//
// The arithmetic is PyTorch's (torch/ao/quantization/fx/_decomposed.py), step for step,
// so results are bit-exact:
//   quantize per tensor:  q = clamp(round_half_even(x * f32(1.0 / scale)) + zp, qmin, qmax)
//                         in float32 (1.0 / scale in double); float16/bfloat16 inputs are
//                         widened to float32 first.
//   quantize per channel: the same with 1 / scales[c] in the scales' dtype and the
//                         arithmetic in float32, or float64 for float64 scales.
//   dequantize per tensor:  x = (to_out_dtype(q) - zp) * scale, rounded to the output dtype
//                           after each step (float32 unless out_dtype says otherwise).
//   dequantize per channel: x = (q - zp[c]) * scales[c] in the scales' dtype, then converted.
//   choose_qparams: min/max over the input, scale = max((max(hi, 0) - min(lo, 0)) /
//                   (qmax - qmin), eps) in float32, zp = clamp(qmin - round(min(lo, 0) /
//                   scale), qmin, qmax); outputs are float64 [1] and int64 [1].
// The `.tensor` overloads read scale and zero point from one-element tensors.
#pragma once

#include <optional>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::ScalarType;
using runtime::Tensor;

Tensor& quantize_per_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, double scale,
                                int64_t zero_point, int64_t quant_min, int64_t quant_max,
                                ScalarType dtype, Tensor& out);
Tensor& quantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& input,
                                       const Tensor& scale, const Tensor& zero_point,
                                       int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                       Tensor& out);
Tensor& dequantize_per_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, double scale,
                                  int64_t zero_point, int64_t quant_min, int64_t quant_max,
                                  ScalarType dtype, std::optional<ScalarType> out_dtype,
                                  Tensor& out);
Tensor& dequantize_per_tensor_tensor_out(KernelRuntimeContext& ctx, const Tensor& input,
                                         const Tensor& scale, const Tensor& zero_point,
                                         int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                         std::optional<ScalarType> out_dtype, Tensor& out);
Tensor& quantize_per_channel_out(KernelRuntimeContext& ctx, const Tensor& input,
                                 const Tensor& scales, const Tensor& zero_points, int64_t axis,
                                 int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                 Tensor& out);
// zero_points may be null (None): no offset.
Tensor& dequantize_per_channel_out(KernelRuntimeContext& ctx, const Tensor& input,
                                   const Tensor& scales, const Tensor* zero_points, int64_t axis,
                                   int64_t quant_min, int64_t quant_max, ScalarType dtype,
                                   std::optional<ScalarType> out_dtype, Tensor& out);
void choose_qparams_tensor_out(KernelRuntimeContext& ctx, const Tensor& input, int64_t quant_min,
                               int64_t quant_max, double eps, ScalarType dtype, Tensor& scale_out,
                               Tensor& zero_point_out);

}  // namespace ember::kernels::portable
