// read_qdq and friends (see qdq.h).
#include "aot/quantize/qdq.h"

#include <cmath>
#include <cstring>

#include "aot/ir/op_schema.h"

namespace ember::aot {
namespace {

// The ops read_qdq understands: (name, overload) of quantized_decomposed.
const char* const kSupported[][2] = {
    {"quantize_per_tensor", "default"},   {"quantize_per_tensor", "tensor"},
    {"dequantize_per_tensor", "default"}, {"dequantize_per_tensor", "tensor"},
    {"quantize_per_channel", "default"},  {"dequantize_per_channel", "default"},
    {"choose_qparams", "tensor"},
};

bool is_float(ScalarType t) {
  return t == ScalarType::Float || t == ScalarType::Half || t == ScalarType::BFloat16;
}

Error bad(const Node& node, const std::string& why) {
  return invalid_program(node.describe() + ": " + why);
}

// The elements of a constant tensor of dtype `From`, as `To`; false when `s` is not one.
template <typename From, typename To>
bool constant_as(const TensorSpec& s, std::vector<To>* out) {
  const int64_t n = s.static_numel();
  if (s.constant == nullptr || n < 0 || s.constant->bytes.size() != size_t(n) * sizeof(From)) {
    return false;
  }
  out->resize(size_t(n));
  for (size_t i = 0; i < out->size(); ++i) {
    From v;
    std::memcpy(&v, s.constant->bytes.data() + i * sizeof(From), sizeof(From));
    (*out)[i] = static_cast<To>(v);
  }
  return true;
}

// Constant scales (float32 / float64) as doubles.
bool constant_doubles(const TensorSpec& s, std::vector<double>* out) {
  if (s.dtype == ScalarType::Float) return constant_as<float>(s, out);
  return s.dtype == ScalarType::Double && constant_as<double>(s, out);
}

// Constant zero points (int64 / int32) as int64.
bool constant_ints(const TensorSpec& s, std::vector<int64_t>* out) {
  if (s.dtype == ScalarType::Long) return constant_as<int64_t>(s, out);
  return s.dtype == ScalarType::Int && constant_as<int32_t>(s, out);
}

// quant_min, quant_max, dtype: a supported storage dtype with the range inside it.
Error read_range(const Node& node, const Argument& qmin, const Argument& qmax,
                 const Argument& dtype, QuantParams* p) {
  p->quant_min = qmin.i;
  p->quant_max = qmax.i;
  p->dtype = dtype.dtype;
  int64_t lo = 0, hi = 0;
  if (!runtime::quantized_storage_range(p->dtype, &lo, &hi)) {
    return bad(node, std::string("quantized dtype ") + scalar_type_name(p->dtype) +
                         " is not supported (uint8, int8, int16, int32)");
  }
  if (p->quant_min < lo || p->quant_max > hi || p->quant_min > p->quant_max) {
    return bad(node, "quant range [" + std::to_string(p->quant_min) + ", " +
                         std::to_string(p->quant_max) + "] does not fit " +
                         scalar_type_name(p->dtype) + " [" + std::to_string(lo) + ", " +
                         std::to_string(hi) + "]");
  }
  return Error::Ok;
}

// The input's dtype: float for quantize, the storage dtype for dequantize.
Error check_input(const Graph& g, const Node& node, QuantParams* p) {
  const ScalarType t = g.value(p->input).tensor.dtype;
  if (p->kind == QdqKind::Dequantize && t != p->dtype) {
    return bad(node, std::string("input '") + g.value(p->input).name + "' is " +
                         scalar_type_name(t) + " but dtype says " + scalar_type_name(p->dtype));
  }
  if (p->kind != QdqKind::Dequantize && !is_float(t)) {
    return bad(node, std::string("input '") + g.value(p->input).name + "' is " +
                         scalar_type_name(t) + "; quantizing needs float32, float16 or bfloat16");
  }
  return Error::Ok;
}

Error read_per_channel(const Graph& g, const Node& node, const std::vector<Argument>& args,
                       QuantParams* p) {
  p->granularity = QdqGranularity::PerChannel;
  p->scale_value = args[1].value();
  p->zero_point_value = args[2].kind == ArgKind::Tensor ? args[2].value() : kNoValue;
  const TensorSpec& in = g.value(p->input).tensor;
  const int64_t rank = static_cast<int64_t>(in.rank());
  p->axis = args[3].i < 0 ? args[3].i + rank : args[3].i;
  if (p->axis < 0 || p->axis >= rank) {
    return bad(node, "axis " + std::to_string(args[3].i) + " is out of range for input '" +
                         g.value(p->input).name + "' of rank " + std::to_string(rank));
  }
  const SymInt& channels = in.sizes[static_cast<size_t>(p->axis)];
  const TensorSpec& scales = g.value(p->scale_value).tensor;
  const int64_t n = scales.static_numel();
  if (scales.rank() != 1 || (channels.is_static && n != channels.value && n != 1)) {
    return bad(node, "scales '" + g.value(p->scale_value).name + "' " + scales.to_string() +
                         " must hold one scale per channel: input '" + g.value(p->input).name +
                         "' " + in.to_string() + " has " + channels.to_string() +
                         " channels along axis " + std::to_string(p->axis));
  }
  if (p->zero_point_value != kNoValue &&
      g.value(p->zero_point_value).tensor.static_numel() != n) {
    const TensorSpec& zp = g.value(p->zero_point_value).tensor;
    return bad(node, "zero_points '" + g.value(p->zero_point_value).name + "' " + zp.to_string() +
                         " must match scales " + scales.to_string() + " (one per channel)");
  }
  if (constant_doubles(scales, &p->scales)) {
    for (double s : p->scales) {
      if (!(s > 0 && std::isfinite(s))) {
        return bad(node, "scale " + std::to_string(s) + " is not positive and finite");
      }
    }
  }
  if (p->zero_point_value == kNoValue) {
    p->zero_points.assign(p->scales.size(), 0);
  } else if (!constant_ints(g.value(p->zero_point_value).tensor, &p->zero_points)) {
    p->zero_points.clear();
  }
  return Error::Ok;
}

Error read_per_tensor(const Node& node, const std::vector<Argument>& args, QuantParams* p) {
  if (args[1].kind == ArgKind::Tensor) {
    p->granularity = QdqGranularity::PerTensorDynamic;
    p->scale_value = args[1].value();
    p->zero_point_value = args[2].value();
    return Error::Ok;
  }
  p->granularity = QdqGranularity::PerTensor;
  p->scale = args[1].kind == ArgKind::Int ? static_cast<double>(args[1].i) : args[1].f;
  p->zero_point = args[2].i;
  if (!(p->scale > 0 && std::isfinite(p->scale))) {
    return bad(node, "scale " + std::to_string(p->scale) + " is not positive and finite");
  }
  return Error::Ok;
}

}  // namespace

bool is_quantized_decomposed(const Node& node) {
  return node.kind == NodeKind::Op && node.op.ns == "quantized_decomposed";
}

bool is_supported_qdq_op(const OpName& op) {
  if (op.ns != "quantized_decomposed") return false;
  for (const auto& s : kSupported) {
    if (op.name == s[0] && op.overload == s[1]) return true;
  }
  return false;
}

std::string supported_qdq_ops() {
  std::string out;
  for (const auto& s : kSupported) out += (out.empty() ? "" : ", ") + std::string(s[0]) + "." + s[1];
  return out;
}

Result<QuantParams> read_qdq(const Graph& graph, const Node& node) {
  const OpSchema* schema = builtin_op_schemas().find(node.op);
  if (!is_supported_qdq_op(node.op) || schema == nullptr) {
    return not_supported(node.describe() + ": quantized op not supported; Ember lowers " +
                         supported_qdq_ops());
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<Argument> args, bind_arguments(*schema, node));
  QuantParams p;
  p.input = args[0].value();
  p.output = node.outputs.empty() ? kNoValue : node.outputs[0].value();
  if (p.input == kNoValue || !graph.valid_id(p.input)) return bad(node, "input is not a tensor");
  const std::string& name = node.op.name;
  if (name == "choose_qparams") {
    p.kind = QdqKind::ChooseQParams;
    p.granularity = QdqGranularity::PerTensorDynamic;
    // (input, quant_min, quant_max, eps, dtype)
    EMBER_TRY(read_range(node, args[1], args[2], args[4], &p));
    if (p.quant_min > 0 || p.quant_max < 0) {
      return bad(node, "quant range [" + std::to_string(p.quant_min) + ", " +
                           std::to_string(p.quant_max) + "] must include 0");
    }
    EMBER_TRY(check_input(graph, node, &p));
    return p;
  }
  p.kind = name.rfind("quantize", 0) == 0 ? QdqKind::Quantize : QdqKind::Dequantize;
  // (input, scale(s), zero_point(s), [axis,] quant_min, quant_max, dtype[, out_dtype])
  const bool per_channel = name.find("per_channel") != std::string::npos;
  const size_t first = per_channel ? 4 : 3;
  EMBER_TRY(read_range(node, args[first], args[first + 1], args[first + 2], &p));
  EMBER_TRY(check_input(graph, node, &p));
  if (p.kind == QdqKind::Dequantize && args.back().kind == ArgKind::ScalarType) {
    p.out_dtype = args.back().dtype;
  }
  EMBER_TRY(per_channel ? read_per_channel(graph, node, args, &p) : read_per_tensor(node, args, &p));
  return p;
}

}  // namespace ember::aot
