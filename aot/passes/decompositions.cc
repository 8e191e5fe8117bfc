// The decomposition table and the helpers shared by the decomp_*.cc rule files.
#include "aot/passes/decompositions.h"

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

const DecompositionTable& training_ir_decompositions() {
  static const DecompositionTable* table = [] {
    auto* t = new DecompositionTable();
    add_linear_decompositions(t);
    add_conv_norm_decompositions(t);
    add_shape_decompositions(t);
    add_attention_decompositions(t);
    add_tensor_op_decompositions(t);
    add_einsum_decompositions(t);
    add_spectral_decompositions(t);
    add_rnn_decompositions(t);
    return t;
  }();
  return *table;
}

ValueId node_output(const Node& node, size_t k) {
  if (k >= node.outputs.size()) return kNoValue;
  return tensor_of(node.outputs[k]);
}

const Argument* input_arg(const Node& node, const char* name) {
  const NamedArgument* a = node.find_input(name);
  return a == nullptr ? nullptr : &a->arg;
}

Result<ValueId> tensor_input(const Node& node, const char* name) {
  const Argument* a = input_arg(node, name);
  if (a == nullptr || tensor_of(*a) == kNoValue) {
    return invalid_program(node.describe() + ": argument '" + name + "' must be a tensor");
  }
  return tensor_of(*a);
}

Result<ValueId> new_tensor_like(Graph& graph, ValueId like, const std::string& base,
                                  std::vector<SymInt> sizes) {
  ScalarType dtype = graph.value(like).tensor.dtype;
  return add_tensor_value(graph, base, contiguous_spec(dtype, std::move(sizes)));
}

Error append_view(Graph& graph, ValueId input, ValueId out, const Node& origin, Rewrite* rw) {
  std::vector<SymInt> in_sizes = graph.value(input).tensor.sizes;
  std::vector<SymInt> out_sizes = graph.value(out).tensor.sizes;
  Argument size;
  size.kind = ArgKind::SymIntList;
  int unresolved = 0;
  for (size_t d = 0; d < out_sizes.size(); ++d) {
    const SymInt& s = out_sizes[d];
    if (s.is_static) {
      size.ints.push_back(s.value);
      size.values.push_back(kNoValue);
      continue;
    }
    int match = -1;
    for (size_t k = 0; k < in_sizes.size(); ++k) {
      if (!in_sizes[k].is_static && in_sizes[k].expr == s.expr) match = static_cast<int>(k);
    }
    if (match < 0) {
      ++unresolved;
      size.ints.push_back(-1);
      size.values.push_back(kNoValue);
      continue;
    }
    Value sym;
    sym.name = fresh_value_name(graph, "sym_size_int");
    sym.kind = ValueKind::SymInt;
    sym.sym = s;
    EMBER_ASSIGN_OR_RETURN(ValueId sid, graph.add_value(std::move(sym)));
    Argument out_arg;
    out_arg.kind = ArgKind::SymInt;
    out_arg.values = {sid};
    rw->nodes.push_back(make_op_node("aten", "sym_size", "int",
                                     {{"self", Argument::tensor(input), false},
                                      {"dim", Argument::integer(match), false}},
                                     {out_arg}, origin));
    size.ints.push_back(0);
    size.values.push_back(sid);
  }
  if (unresolved > 1) {
    return not_supported(origin.describe() + ": cannot express the view to " +
                         graph.value(out).tensor.to_string() +
                         " (more than one symbolic size not found in the input " +
                         graph.value(input).tensor.to_string() + ")");
  }
  rw->nodes.push_back(make_op_node("aten", "view", "default",
                                   {{"self", Argument::tensor(input), false},
                                    {"size", size, false}},
                                   {Argument::tensor(out)}, origin));
  return Error::Ok;
}

}  // namespace ember::aot
