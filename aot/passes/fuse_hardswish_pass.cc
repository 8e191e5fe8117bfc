// FuseHardswishPass (see fuse_hardswish_pass.h).
#include "aot/passes/fuse_hardswish_pass.h"

#include <algorithm>
#include <cstring>
#include <limits>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Which node produces each value (SIZE_MAX for graph inputs), and how often each value is used.
struct Producers {
  std::vector<size_t> node;
  std::vector<int32_t> uses;
};

// The node producing `v` when v has exactly one use; nullptr otherwise.
const Node* single_use_producer(const Graph& g, const Producers& p, ValueId v, size_t* index) {
  if (v == kNoValue || p.uses[size_t(v)] != 1 || p.node[size_t(v)] == SIZE_MAX) return nullptr;
  *index = p.node[size_t(v)];
  return &g.nodes()[*index];
}

bool is_f32_scalar(const Graph& g, ValueId v, float want) {
  if (v == kNoValue) return false;
  const TensorSpec& t = g.value(v).tensor;
  if (t.dtype != ScalarType::Float || t.rank() != 0 || t.constant == nullptr ||
      t.constant->bytes.size() != sizeof(float)) {
    return false;
  }
  float f = 0;
  std::memcpy(&f, t.constant->bytes.data(), sizeof(f));
  return f == want;
}

// A scalar argument (absent or None: `dflt`); false when it is not a number.
bool scalar_arg(const Node& n, const char* name, double dflt, double* out) {
  const NamedArgument* a = n.find_input(name);
  if (a == nullptr || a->arg.kind == ArgKind::None) {
    *out = dflt;
  } else if (a->arg.kind == ArgKind::Int) {
    *out = double(a->arg.i);
  } else if (a->arg.kind == ArgKind::Float) {
    *out = a->arg.f;
  } else {
    return false;
  }
  return true;
}

// Follows clamp(_, 0, 6) from `v` (one or two clamps); returns the clamped input and adds the
// clamp nodes to `chain`, or kNoValue.
ValueId unclamp(const Graph& g, const Producers& p, ValueId v, std::vector<size_t>* chain) {
  double lo = -kInf, hi = kInf;
  for (int k = 0; k < 2; ++k) {
    size_t i = 0;
    const Node* c = single_use_producer(g, p, v, &i);
    double l = 0, h = 0;
    if (c == nullptr || !is_aten_op(*c, "clamp", "default")) break;
    if (!scalar_arg(*c, "min", -kInf, &l) || !scalar_arg(*c, "max", kInf, &h)) return kNoValue;
    lo = std::max(lo, l);
    hi = std::min(hi, h);
    chain->push_back(i);
    v = optional_tensor_input(*c, "self");
  }
  return chain->empty() || lo != 0.0 || hi != 6.0 ? kNoValue : v;
}

// The nodes to drop when `div` (node index `d`) ends a hardswish of `*x`; empty if it does not.
std::vector<size_t> match(const Graph& g, const Producers& p, size_t d, ValueId* x) {
  const Node& div = g.nodes()[d];
  if (!is_aten_op(div, "div", "Tensor") ||
      !is_f32_scalar(g, optional_tensor_input(div, "other"), 6.f))
    return {};
  size_t mi = 0;
  const Node* mul = single_use_producer(g, p, optional_tensor_input(div, "self"), &mi);
  if (mul == nullptr || !is_aten_op(*mul, "mul", "Tensor")) return {};
  const ValueId operands[2] = {optional_tensor_input(*mul, "self"),
                               optional_tensor_input(*mul, "other")};
  for (int k = 0; k < 2; ++k) {
    std::vector<size_t> chain{mi};
    size_t ai = 0;
    const Node* add = single_use_producer(g, p, unclamp(g, p, operands[k], &chain), &ai);
    double alpha = 0;
    if (add == nullptr || !is_aten_op(*add, "add", "Tensor") ||
        !scalar_arg(*add, "alpha", 1.0, &alpha) || alpha != 1.0) {
      continue;
    }
    const ValueId a = optional_tensor_input(*add, "self"), b = optional_tensor_input(*add, "other");
    const ValueId in = is_f32_scalar(g, b, 3.f) ? a : is_f32_scalar(g, a, 3.f) ? b : kNoValue;
    if (in == kNoValue || in != operands[1 - k] || g.value(in).tensor.dtype != ScalarType::Float)
      continue;
    chain.push_back(ai);
    *x = in;
    return chain;
  }
  return {};
}

}  // namespace

Error FuseHardswishPass::run(Graph& graph) const {
  Producers p{std::vector<size_t>(graph.num_values(), SIZE_MAX), use_counts(graph)};
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    for (const Argument& o : graph.nodes()[i].outputs) {
      for_each_value(o, [&](ValueId v) { p.node[size_t(v)] = i; });
    }
  }
  std::vector<bool> drop(graph.nodes().size(), false);
  for (size_t d = 0; d < graph.nodes().size(); ++d) {
    ValueId x = kNoValue;
    const std::vector<size_t> fused = match(graph, p, d, &x);
    if (fused.empty()) continue;
    Node& div = graph.nodes()[d];
    div = make_op_node("aten", "hardswish", "default", {{"self", Argument::tensor(x), false}},
                       div.outputs, div);
    for (size_t i : fused) drop[i] = true;
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
