// Graph rewriting helpers (see graph_rewrite.h).
#include "aot/ir/graph_rewrite.h"

#include <algorithm>
#include <numeric>

namespace ember::aot {

std::string fresh_value_name(const Graph& graph, const std::string& base) {
  if (graph.find_value(base) == kNoValue) return base;
  for (int i = 1;; ++i) {
    std::string name = base + "_" + std::to_string(i);
    if (graph.find_value(name) == kNoValue) return name;
  }
}

std::vector<SymInt> static_sizes(const std::vector<int64_t>& sizes) {
  std::vector<SymInt> out;
  out.reserve(sizes.size());
  for (int64_t s : sizes) out.push_back(SymInt::of(s));
  return out;
}

TensorSpec contiguous_spec(ScalarType dtype, std::vector<SymInt> sizes) {
  TensorSpec spec;
  spec.dtype = dtype;
  spec.sizes = std::move(sizes);
  size_t n = spec.sizes.size();
  spec.strides.assign(n, SymInt::of(1));
  int64_t stride = 1;
  bool symbolic = false;
  for (size_t k = n; k-- > 0;) {
    spec.strides[k] = symbolic ? SymInt() : SymInt::of(stride);
    if (symbolic) {
      spec.strides[k].is_static = false;
      spec.strides[k].text = "?";
    }
    const SymInt& s = spec.sizes[k];
    if (s.is_static) {
      stride *= s.value < 1 ? 1 : s.value;
    } else {
      symbolic = true;
    }
  }
  spec.dim_order.resize(n);
  std::iota(spec.dim_order.begin(), spec.dim_order.end(), 0);
  return spec;
}

Result<ValueId> add_tensor_value(Graph& graph, const std::string& base, TensorSpec spec) {
  Value v;
  v.name = fresh_value_name(graph, base);
  v.kind = ValueKind::Tensor;
  v.tensor = std::move(spec);
  return graph.add_value(std::move(v));
}

Node make_op_node(const std::string& ns, const std::string& name, const std::string& overload,
                  std::vector<NamedArgument> inputs, std::vector<Argument> outputs,
                  const Node& origin) {
  Node n;
  n.kind = NodeKind::Op;
  n.op = OpName{ns, name, overload};
  n.target = "torch.ops." + ns + "." + name + "." + overload;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.name = origin.name;
  n.stack_trace = origin.stack_trace;
  n.metadata = origin.metadata;
  return n;
}

void lift_as_parameter(Graph& g, ValueId v) {
  size_t at = 0;
  auto& specs = g.signature().inputs;
  while (at < specs.size() && specs[at].kind != InputKind::UserInput) ++at;
  InputSpec in;
  in.kind = InputKind::Parameter;
  in.name = g.value(v).name;
  in.target = g.value(v).name;
  if (specs.size() == g.inputs().size()) specs.insert(specs.begin() + long(at), in);
  g.inputs().insert(g.inputs().begin() + long(std::min(at, g.inputs().size())),
                    Argument::tensor(v));
}

void replace_uses(Graph& graph, ValueId from, ValueId to, size_t first_node) {
  auto fix = [&](Argument& arg) {
    for (ValueId& v : arg.values) {
      if (v == from) v = to;
    }
  };
  for (size_t i = first_node; i < graph.nodes().size(); ++i) {
    for (NamedArgument& in : graph.nodes()[i].inputs) fix(in.arg);
  }
  for (Argument& out : graph.outputs()) fix(out);
}

std::vector<int32_t> use_counts(const Graph& graph) {
  std::vector<int32_t> uses(graph.num_values(), 0);
  auto count = [&](const Argument& a) {
    for_each_value(a, [&](ValueId v) {
      if (graph.valid_id(v)) ++uses[static_cast<size_t>(v)];
    });
  };
  for (const Node& n : graph.nodes()) {
    for (const NamedArgument& in : n.inputs) count(in.arg);
  }
  for (const Argument& out : graph.outputs()) count(out);
  return uses;
}

void remove_nodes(Graph& graph, const std::vector<bool>& drop) {
  std::vector<Node> kept;
  kept.reserve(graph.nodes().size());
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (i >= drop.size() || !drop[i]) kept.push_back(std::move(graph.nodes()[i]));
  }
  graph.nodes() = std::move(kept);
}

Result<std::vector<Argument>> bound_arguments(const Node& node, const OpSchema** schema) {
  const OpSchema* s = builtin_op_schemas().find(node.op);
  if (s == nullptr) {
    return fail(Error::OperatorMissing, node.describe() + ": no schema for this operator");
  }
  if (schema != nullptr) *schema = s;
  return bind_arguments(*s, node);
}

Result<std::vector<Argument>> bound_arguments(const Graph& graph, const Node& node,
                                              const OpSchema** schema) {
  const OpSchema* s = find_op_schema(graph, node.op);
  if (s == nullptr) {
    return fail(Error::OperatorMissing, node.describe() + ": no schema for this operator");
  }
  if (schema != nullptr) *schema = s;
  return bind_arguments(*s, node);
}

Result<std::vector<int64_t>> static_int_list(const Argument& arg, const Node& node,
                                               const char* what) {
  if (arg.kind == ArgKind::Int) return std::vector<int64_t>{arg.i};
  if (arg.kind != ArgKind::IntList && arg.kind != ArgKind::SymIntList) {
    return invalid_program(node.describe() + ": " + what + " is " + to_string(arg.kind) +
                           ", expected an int list");
  }
  for (size_t k = 0; k < arg.values.size(); ++k) {
    if (arg.values[k] != kNoValue) {
      return not_supported(node.describe() + ": " + what + " element " + std::to_string(k) +
                           " is symbolic; only static values are supported here");
    }
  }
  return arg.ints;
}

}  // namespace ember::aot
