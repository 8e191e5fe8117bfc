// CastScalarConstantsPass (see cast_scalar_constants_pass.h).
#include "aot/passes/cast_scalar_constants_pass.h"

#include <cstring>
#include <memory>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

bool is_float_arithmetic(const Node& n) {
  if (n.kind != NodeKind::Op || n.op.ns != "aten") return false;
  const std::string& name = n.op.name;
  if (n.op.overload == "Tensor")
    return name == "add" || name == "sub" || name == "mul" || name == "div";
  return n.op.overload == "default" && (name == "maximum" || name == "minimum");
}

bool is_float_tensor(const Graph& g, ValueId v) {
  return v != kNoValue && g.value(v).kind == ValueKind::Tensor &&
         g.value(v).tensor.dtype == ScalarType::Float;
}

template <typename T>
bool read_as_double(const std::vector<uint8_t>& bytes, double* out) {
  T x{};
  if (bytes.size() != sizeof(x)) return false;
  std::memcpy(&x, bytes.data(), sizeof(x));
  *out = static_cast<double>(x);
  return true;
}

// The 0-dim constant's value as a double, when its dtype is an integer type or f64.
bool scalar_value(const TensorSpec& t, double* out) {
  if (t.constant == nullptr || t.rank() != 0) return false;
  const std::vector<uint8_t>& b = t.constant->bytes;
  switch (t.dtype) {
    case ScalarType::Long:
      return read_as_double<int64_t>(b, out);
    case ScalarType::Int:
      return read_as_double<int32_t>(b, out);
    case ScalarType::Short:
      return read_as_double<int16_t>(b, out);
    case ScalarType::Char:
      return read_as_double<int8_t>(b, out);
    case ScalarType::Byte:
      return read_as_double<uint8_t>(b, out);
    case ScalarType::Double:
      return read_as_double<double>(b, out);
    default:
      return false;
  }
}

// Whether `n` uses `v` as self or other of f32 arithmetic whose other operand is f32.
bool eligible_use(const Graph& g, const Node& n, ValueId v) {
  if (!is_float_arithmetic(n) || n.outputs.size() != 1 ||
      !is_float_tensor(g, tensor_of(n.outputs[0]))) {
    return false;
  }
  const NamedArgument* self = n.find_input("self");
  const NamedArgument* other = n.find_input("other");
  if (self == nullptr || other == nullptr) return false;
  const ValueId a = tensor_of(self->arg), b = tensor_of(other->arg);
  if (a == v) return b != v && is_float_tensor(g, b);
  return b == v && is_float_tensor(g, a);
}

}  // namespace

Error CastScalarConstantsPass::run(Graph& graph) const {
  const std::vector<int32_t> uses = use_counts(graph);
  std::vector<int32_t> eligible(uses.size(), 0);
  for (const Node& n : graph.nodes()) {
    for (const NamedArgument& in : n.inputs) {
      const ValueId v = tensor_of(in.arg);
      if (v != kNoValue && eligible_use(graph, n, v)) ++eligible[size_t(v)];
    }
  }
  for (size_t v = 0; v < uses.size(); ++v) {
    if (eligible[v] == 0 || eligible[v] != uses[v]) continue;
    TensorSpec& spec = graph.value(ValueId(v)).tensor;
    double x = 0;
    if (!scalar_value(spec, &x)) continue;
    const float f = static_cast<float>(x);
    auto c = std::make_shared<ConstantData>();
    c->bytes.resize(sizeof(f));
    std::memcpy(c->bytes.data(), &f, sizeof(f));
    c->source = spec.constant->source + " (cast to f32 ahead of time)";
    TensorSpec cast = contiguous_spec(ScalarType::Float, {});
    cast.constant = std::move(c);
    spec = std::move(cast);
  }
  return Error::Ok;
}

}  // namespace ember::aot
