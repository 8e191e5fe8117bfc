// What a quantize / dequantize node of a PT2E program says.
//
// convert_pt2e writes quantization as `quantized_decomposed::` ops around float ops:
//   x_q = quantize_per_tensor(x, scale, zero_point, quant_min, quant_max, dtype)
//   x_f = dequantize_per_tensor(x_q, scale, zero_point, quant_min, quant_max, dtype)
// with per-channel variants for weights (scales and zero points are constant 1-D tensors
// along `axis`) and `.tensor` overloads whose scale and zero point are computed at run time
// by choose_qparams.tensor (dynamic quantization). read_qdq() parses one such node into a
// QuantParams and checks it against its tensors; the edge check (QuantizedOpCheckPass) and
// the backends' pattern matchers read nodes through it, so both see the same rules.
#pragma once

#include <string>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

enum class QdqKind : uint8_t { Quantize, Dequantize, ChooseQParams };

enum class QdqGranularity : uint8_t {
  PerTensor,         // scale and zero_point are literals (.default)
  PerTensorDynamic,  // scale and zero_point are one-element tensors (.tensor)
  PerChannel,        // scales / zero_points along `axis`
};

struct QuantParams {
  QdqKind kind = QdqKind::Quantize;
  QdqGranularity granularity = QdqGranularity::PerTensor;
  ScalarType dtype = ScalarType::Undefined;  // storage: Byte, Char, Short or Int
  int64_t quant_min = 0;
  int64_t quant_max = 0;
  ValueId input = kNoValue;
  ValueId output = kNoValue;  // ChooseQParams: the scale output (zero point is output 1)

  // PerTensor.
  double scale = 0;
  int64_t zero_point = 0;
  // PerTensorDynamic: the scale / zero-point tensors. PerChannel: scales / zero points
  // (zero_points_value is kNoValue when the node passes None).
  ValueId scale_value = kNoValue;
  ValueId zero_point_value = kNoValue;
  // PerChannel.
  int64_t axis = 0;                  // normalised to [0, rank)
  std::vector<double> scales;        // when the scales are constant, else empty
  std::vector<int64_t> zero_points;  // when constant (all zeros for None), else empty

  // Dequantize only: the float dtype it produces (out_dtype, default Float).
  ScalarType out_dtype = ScalarType::Float;
};

// True for any node of the quantized_decomposed namespace.
bool is_quantized_decomposed(const Node& node);
// True for the quantized_decomposed ops Ember lowers and runs (see supported_qdq_ops()).
bool is_supported_qdq_op(const OpName& op);
// "quantize_per_tensor.default, ..." for messages.
std::string supported_qdq_ops();

// Parses a supported quantized_decomposed node and checks it against its tensors: storage
// dtype and [quant_min, quant_max] inside it; a positive finite scale; a float input for
// quantize and an input of `dtype` for dequantize; per channel, a valid axis and one scale
// and zero point per channel of that axis (from the value's static sizes). Errors are
// InvalidProgram naming the node and its source line (NotSupported for an unsupported op).
Result<QuantParams> read_qdq(const Graph& graph, const Node& node);

}  // namespace ember::aot
