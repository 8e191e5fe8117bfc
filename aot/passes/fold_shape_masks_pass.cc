// FoldShapeMasksPass (see fold_shape_masks_pass.h).
#include "aot/passes/fold_shape_masks_pass.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <set>
#include <string>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

// A dense host tensor: values as doubles (exact for the integers masks hold).
struct Host {
  std::vector<int64_t> sizes;
  std::vector<double> v;
};

enum class Kind { Source, Same, Expand, Binary, Unary, Where };

const std::map<std::string, Kind>& evaluable() {
  static const auto* m = new std::map<std::string, Kind>{
      {"aten::arange.start_step", Kind::Source},
      {"aten::full.default", Kind::Source},
      {"aten::scalar_tensor.default", Kind::Source},
      {"aten::unsqueeze.default", Kind::Same},
      {"aten::unsqueeze_copy.default", Kind::Same},
      {"aten::squeeze.dim", Kind::Same},
      {"aten::squeeze.dims", Kind::Same},
      {"aten::view.default", Kind::Same},
      {"aten::view_copy.default", Kind::Same},
      {"aten::_unsafe_view.default", Kind::Same},
      {"aten::reshape.default", Kind::Same},
      {"aten::clone.default", Kind::Same},
      {"aten::alias.default", Kind::Same},
      {"aten::_to_copy.default", Kind::Same},
      {"aten::lift_fresh_copy.default", Kind::Same},
      {"aten::expand.default", Kind::Expand},
      {"aten::expand_copy.default", Kind::Expand},
      {"aten::add.Tensor", Kind::Binary},
      {"aten::add.Scalar", Kind::Binary},
      {"aten::sub.Tensor", Kind::Binary},
      {"aten::sub.Scalar", Kind::Binary},
      {"aten::mul.Tensor", Kind::Binary},
      {"aten::mul.Scalar", Kind::Binary},
      {"aten::eq.Tensor", Kind::Binary},
      {"aten::eq.Scalar", Kind::Binary},
      {"aten::ne.Tensor", Kind::Binary},
      {"aten::ne.Scalar", Kind::Binary},
      {"aten::lt.Tensor", Kind::Binary},
      {"aten::lt.Scalar", Kind::Binary},
      {"aten::le.Tensor", Kind::Binary},
      {"aten::le.Scalar", Kind::Binary},
      {"aten::gt.Tensor", Kind::Binary},
      {"aten::gt.Scalar", Kind::Binary},
      {"aten::ge.Tensor", Kind::Binary},
      {"aten::ge.Scalar", Kind::Binary},
      {"aten::bitwise_and.Tensor", Kind::Binary},
      {"aten::bitwise_or.Tensor", Kind::Binary},
      {"aten::bitwise_xor.Tensor", Kind::Binary},
      {"aten::logical_and.default", Kind::Binary},
      {"aten::logical_or.default", Kind::Binary},
      {"aten::logical_xor.default", Kind::Binary},
      {"aten::logical_not.default", Kind::Unary},
      {"aten::bitwise_not.default", Kind::Unary},
      {"aten::where.self", Kind::Where},
  };
  return *m;
}

bool foldable_dtype(ScalarType t) {
  return t == ScalarType::Bool || t == ScalarType::Byte || t == ScalarType::Int ||
         t == ScalarType::Long || t == ScalarType::Float || t == ScalarType::Double;
}

std::vector<int64_t> sizes_of(const TensorSpec& s) {
  std::vector<int64_t> out;
  for (const SymInt& d : s.sizes) out.push_back(d.value);
  return out;
}

bool read_constant(const TensorSpec& s, Host* h) {
  const int64_t n = s.static_numel();
  if (s.constant == nullptr || !s.is_static() || !foldable_dtype(s.dtype) || n < 0 ||
      int64_t(s.constant->bytes.size()) != s.static_nbytes()) {
    return false;
  }
  h->sizes = sizes_of(s);
  h->v.resize(size_t(n));
  const uint8_t* p = s.constant->bytes.data();
  for (int64_t i = 0; i < n; ++i) {
    double x = 0;
    switch (s.dtype) {
      case ScalarType::Bool:
      case ScalarType::Byte:
        x = p[i];
        break;
      case ScalarType::Int: {
        int32_t t;
        std::memcpy(&t, p + 4 * i, 4);
        x = t;
        break;
      }
      case ScalarType::Long: {
        int64_t t;
        std::memcpy(&t, p + 8 * i, 8);
        if (t > (int64_t(1) << 53) || t < -(int64_t(1) << 53)) return false;
        x = double(t);
        break;
      }
      case ScalarType::Float: {
        float t;
        std::memcpy(&t, p + 4 * i, 4);
        x = t;
        break;
      }
      default: {
        std::memcpy(&x, p + 8 * i, 8);
        break;
      }
    }
    h->v[size_t(i)] = x;
  }
  return true;
}

std::vector<uint8_t> write_bytes(const std::vector<double>& v, ScalarType t) {
  std::vector<uint8_t> out(v.size() * element_size(t));
  uint8_t* p = out.data();
  for (size_t i = 0; i < v.size(); ++i) {
    switch (t) {
      case ScalarType::Bool:
        p[i] = v[i] != 0;
        break;
      case ScalarType::Byte:
        p[i] = uint8_t(int64_t(v[i]));
        break;
      case ScalarType::Int: {
        int32_t x = int32_t(v[i]);
        std::memcpy(p + 4 * i, &x, 4);
        break;
      }
      case ScalarType::Long: {
        int64_t x = int64_t(v[i]);
        std::memcpy(p + 8 * i, &x, 8);
        break;
      }
      case ScalarType::Float: {
        float x = float(v[i]);
        std::memcpy(p + 4 * i, &x, 4);
        break;
      }
      default:
        std::memcpy(p + 8 * i, &v[i], 8);
        break;
    }
  }
  return out;
}

// Element `flat` of `out_sizes` read from `h` broadcast to it (trailing dims aligned).
double broadcast_at(const Host& h, const std::vector<int64_t>& out_sizes, int64_t flat) {
  if (h.v.size() == 1) return h.v[0];
  int64_t src = 0, stride = 1;
  const size_t r = out_sizes.size(), hr = h.sizes.size();
  for (size_t k = r; k-- > 0;) {
    const int64_t idx = flat % out_sizes[k];
    flat /= out_sizes[k];
    if (k + hr >= r) {
      const int64_t hs = h.sizes[k + hr - r];
      if (hs != 1) src += idx * stride;
      stride *= hs;
    }
  }
  return h.v[size_t(src)];
}

// Argument as a broadcastable Host (a tensor from `known`, or a scalar literal).
bool operand(const Argument& a, const std::map<ValueId, Host>& known, Host* h) {
  if (a.kind == ArgKind::Tensor) {
    auto it = known.find(a.values[0]);
    if (it == known.end()) return false;
    *h = it->second;
    return true;
  }
  if (!a.values.empty()) return false;  // a symbolic value
  h->sizes.clear();
  if (a.kind == ArgKind::Int || a.kind == ArgKind::SymInt)
    h->v = {double(a.i)};
  else if (a.kind == ArgKind::Float || a.kind == ArgKind::SymFloat)
    h->v = {a.f};
  else if (a.kind == ArgKind::Bool || a.kind == ArgKind::SymBool)
    h->v = {a.b ? 1.0 : 0.0};
  else
    return false;
  return true;
}

double binary(const std::string& name, double a, double b, double alpha, ScalarType out) {
  const bool as_bool = out == ScalarType::Bool;
  if (name == "add") return a + alpha * b;
  if (name == "sub") return a - alpha * b;
  if (name == "mul") return a * b;
  if (name == "eq") return a == b;
  if (name == "ne") return a != b;
  if (name == "lt") return a < b;
  if (name == "le") return a <= b;
  if (name == "gt") return a > b;
  if (name == "ge") return a >= b;
  if (name == "logical_and") return (a != 0) && (b != 0);
  if (name == "logical_or") return (a != 0) || (b != 0);
  if (name == "logical_xor") return (a != 0) != (b != 0);
  const int64_t x = int64_t(a), y = int64_t(b);
  if (name == "bitwise_and") return as_bool ? double((x != 0) && (y != 0)) : double(x & y);
  if (name == "bitwise_or") return as_bool ? double((x != 0) || (y != 0)) : double(x | y);
  return as_bool ? double((x != 0) != (y != 0)) : double(x ^ y);  // bitwise_xor
}

// Evaluates `n` (already known to be evaluable with known inputs) into `out`; false if some
// argument is not a form handled here.
bool evaluate(const Graph& g, const Node& n, const std::map<ValueId, Host>& known, Host* out) {
  const OpSchema* schema = nullptr;
  auto bound = bound_arguments(g, n, &schema);
  if (!bound.ok()) return false;
  const std::vector<Argument>& args = bound.get();
  const TensorSpec& os = g.value(tensor_of(n.outputs[0])).tensor;
  out->sizes = sizes_of(os);
  const int64_t numel = os.static_numel();
  out->v.assign(size_t(numel), 0.0);
  const std::string& name = n.op.name;
  switch (evaluable().at(n.op.qualified())) {
    case Kind::Source: {
      Host s;
      if (name == "arange") {
        Host start, step;
        if (!operand(args[0], known, &start) || !operand(args[2], known, &step)) return false;
        for (int64_t i = 0; i < numel; ++i) out->v[size_t(i)] = start.v[0] + double(i) * step.v[0];
        return true;
      }
      if (!operand(args[name == "full" ? 1 : 0], known, &s)) return false;
      for (double& x : out->v) x = s.v[0];
      return true;
    }
    case Kind::Same:
    case Kind::Expand: {
      Host in;
      if (!operand(args[0], known, &in)) return false;
      if (evaluable().at(n.op.qualified()) == Kind::Same && int64_t(in.v.size()) != numel)
        return false;
      for (int64_t i = 0; i < numel; ++i) {
        out->v[size_t(i)] = evaluable().at(n.op.qualified()) == Kind::Same
                                ? in.v[size_t(i)]
                                : broadcast_at(in, out->sizes, i);
      }
      return true;
    }
    case Kind::Unary: {
      Host in;
      if (!operand(args[0], known, &in) || int64_t(in.v.size()) != numel) return false;
      const bool as_bool = os.dtype == ScalarType::Bool;
      for (int64_t i = 0; i < numel; ++i) {
        const double x = in.v[size_t(i)];
        out->v[size_t(i)] = name == "logical_not" || as_bool ? double(x == 0) : double(~int64_t(x));
      }
      return true;
    }
    case Kind::Binary: {
      Host a, b, alpha;
      alpha.v = {1.0};
      if (!operand(args[0], known, &a) || !operand(args[1], known, &b)) return false;
      if (args.size() > 2 && !operand(args[2], known, &alpha)) return false;
      for (int64_t i = 0; i < numel; ++i) {
        out->v[size_t(i)] = binary(name, broadcast_at(a, out->sizes, i),
                                   broadcast_at(b, out->sizes, i), alpha.v[0], os.dtype);
      }
      return true;
    }
    case Kind::Where: {
      Host c, a, b;
      if (!operand(args[0], known, &c) || !operand(args[1], known, &a) ||
          !operand(args[2], known, &b)) {
        return false;
      }
      for (int64_t i = 0; i < numel; ++i) {
        out->v[size_t(i)] = broadcast_at(c, out->sizes, i) != 0 ? broadcast_at(a, out->sizes, i)
                                                                : broadcast_at(b, out->sizes, i);
      }
      return true;
    }
  }
  return false;
}

// Whether `n` may be folded once its tensor inputs are constant (in `constant`).
bool candidate(const Graph& g, const Node& n, const std::set<ValueId>& constant,
               const std::set<ValueId>& graph_outputs) {
  if (n.kind != NodeKind::Op || n.outputs.size() != 1) return false;
  if (evaluable().count(n.op.qualified()) == 0) return false;
  const ValueId out = tensor_of(n.outputs[0]);
  if (out == kNoValue || graph_outputs.count(out) != 0) return false;
  const TensorSpec& os = g.value(out).tensor;
  if (!os.is_static() || !foldable_dtype(os.dtype) ||
      os.static_numel() > FoldShapeMasksPass::kMaxFoldedElements) {
    return false;
  }
  for (const NamedArgument& in : n.inputs) {
    if (in.arg.kind != ArgKind::Tensor && !in.arg.values.empty()) return false;
    if (in.arg.kind == ArgKind::Tensor && constant.count(in.arg.values[0]) == 0) return false;
  }
  return true;
}

}  // namespace

Error FoldShapeMasksPass::run(Graph& graph) const {
  std::set<ValueId> constant, graph_outputs;
  for (ValueId v = 0; size_t(v) < graph.num_values(); ++v) {
    const Value& val = graph.value(v);
    if (val.kind == ValueKind::Tensor && val.tensor.constant != nullptr) constant.insert(v);
  }
  for (const Argument& o : graph.outputs())
    for_each_value(o, [&](ValueId v) { graph_outputs.insert(v); });
  // Forward: the nodes that could be folded. Backward: keep those that are bool or feed one.
  const size_t count = graph.nodes().size();
  std::vector<bool> cand(count, false), fold(count, false);
  std::map<ValueId, size_t> producer;
  for (size_t i = 0; i < count; ++i) {
    const Node& n = graph.nodes()[i];
    cand[i] = candidate(graph, n, constant, graph_outputs);
    if (cand[i]) {
      constant.insert(tensor_of(n.outputs[0]));
      producer[tensor_of(n.outputs[0])] = i;
    }
  }
  for (size_t i = count; i-- > 0;) {
    if (!cand[i]) continue;
    const Node& n = graph.nodes()[i];
    if (graph.value(tensor_of(n.outputs[0])).tensor.dtype == ScalarType::Bool) fold[i] = true;
    if (!fold[i]) continue;
    for (const NamedArgument& in : n.inputs) {
      if (in.arg.kind != ArgKind::Tensor) continue;
      auto p = producer.find(in.arg.values[0]);
      if (p != producer.end()) fold[p->second] = true;
    }
  }
  // Forward again: evaluate the folded nodes in order (inputs: constants or folded outputs).
  std::map<ValueId, Host> known;
  for (size_t i = 0; i < count; ++i) {
    if (!fold[i]) continue;
    const Node& n = graph.nodes()[i];
    for (const NamedArgument& in : n.inputs) {
      if (in.arg.kind != ArgKind::Tensor || known.count(in.arg.values[0]) != 0) continue;
      Host h;
      if (!read_constant(graph.value(in.arg.values[0]).tensor, &h)) break;
      known[in.arg.values[0]] = std::move(h);
    }
    Host result;
    if (!evaluate(graph, n, known, &result)) {
      fold[i] = false;  // an argument form not handled: the node stays (and so do its users)
      continue;
    }
    const ValueId out = tensor_of(n.outputs[0]);
    TensorSpec& spec = graph.value(out).tensor;
    auto c = std::make_shared<ConstantData>();
    c->bytes = write_bytes(result.v, spec.dtype);
    c->source = "folded at lowering: " + n.name + " (" + n.op.qualified() + ")";
    TensorSpec folded = contiguous_spec(spec.dtype, spec.sizes);
    folded.constant = std::move(c);
    spec = std::move(folded);
    known[out] = std::move(result);
  }
  remove_nodes(graph, fold);
  // The folded values still read become lifted tensor constants: graph inputs placed before
  // the user inputs, as torch.export places its own constants.
  const std::vector<int32_t> uses = use_counts(graph);
  for (const auto& [v, host] : known) {
    if (producer.count(v) == 0 || !fold[producer[v]] || uses[size_t(v)] == 0) continue;
    size_t at = 0;
    auto& specs = graph.signature().inputs;
    while (at < specs.size() && specs[at].kind != InputKind::UserInput) ++at;
    InputSpec in;
    in.kind = InputKind::TensorConstant;
    in.name = graph.value(v).name;
    in.target = graph.value(v).name;
    if (specs.size() == graph.inputs().size()) specs.insert(specs.begin() + long(at), in);
    graph.inputs().insert(graph.inputs().begin() + long(std::min(at, graph.inputs().size())),
                          Argument::tensor(v));
  }
  return Error::Ok;
}

}  // namespace ember::aot
