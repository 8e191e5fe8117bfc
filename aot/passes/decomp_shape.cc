// Decompositions of shape and conversion training-IR ops:
//   flatten.using_ints / reshape / unflatten.int / _unsafe_view -> view(x, out sizes)
//   contiguous(x)  -> x (alias) when x is contiguous, else clone(x, contiguous_format)
//   to.dtype(x, t) -> _to_copy(x, dtype=t)
//   to.dtype_layout / to.device / to.other -> x, or _to_copy to the result's dtype
//   type_as(x, y) -> _to_copy(x, dtype=y's dtype)
//   sum.default(x) -> sum.dim_IntList(x, None)
#include "aot/ir/graph_rewrite.h"
#include "aot/passes/decompositions.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

Result<Rewrite> decompose_to_view(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  EMBER_TRY(append_view(g, x, node_output(node), node, &rw));
  return rw;
}

bool is_identity(const std::vector<uint8_t>& order) {
  for (size_t i = 0; i < order.size(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

Result<Rewrite> decompose_contiguous(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  if (is_identity(g.value(x).tensor.dim_order)) {
    rw.alias_of = x;
    return rw;
  }
  Argument fmt;
  fmt.kind = ArgKind::MemoryFormat;
  fmt.i = 1;  // contiguous_format
  rw.nodes.push_back(make_op_node(
      "aten", "clone", "default",
      {named("self", Argument::tensor(x)), {"memory_format", fmt, true}}, node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_to_dtype(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const Argument* dtype = input_arg(node, "dtype");
  if (dtype == nullptr) return invalid_program(node.describe() + ": dtype is missing");
  rw.nodes.push_back(make_op_node("aten", "_to_copy", "default",
                                  {named("self", Argument::tensor(x)), {"dtype", *dtype, true}},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_type_as(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  EMBER_ASSIGN_OR_RETURN(ValueId other, tensor_input(node, "other"));
  rw.nodes.push_back(
      make_op_node("aten", "_to_copy", "default",
                   {named("self", Argument::tensor(x)),
                    {"dtype", Argument::scalar_type(g.value(other).tensor.dtype), true}},
                   node.outputs, node));
  return rw;
}

// to.dtype_layout / to.device / to.other (Hugging Face's mask code): on a CPU-only runtime
// only the element type matters. Same dtype as the input: the input itself; else _to_copy to
// the result's dtype.
Result<Rewrite> decompose_to_any(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const ValueId out = node_output(node);
  if (out == kNoValue) return invalid_program(node.describe() + ": needs a tensor result");
  const ScalarType want = g.value(out).tensor.dtype;
  if (want == g.value(x).tensor.dtype) {
    rw.alias_of = x;
    return rw;
  }
  rw.nodes.push_back(make_op_node(
      "aten", "_to_copy", "default",
      {named("self", Argument::tensor(x)), {"dtype", Argument::scalar_type(want), true}},
      node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_sum(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  std::vector<NamedArgument> inputs = {named("self", Argument::tensor(x)),
                                       named("dim", Argument::none())};
  const Argument* dtype = input_arg(node, "dtype");
  if (dtype != nullptr) inputs.push_back({"dtype", *dtype, true});
  rw.nodes.push_back(make_op_node("aten", "sum", "dim_IntList", inputs, node.outputs, node));
  return rw;
}

}  // namespace

void add_shape_decompositions(DecompositionTable* table) {
  (*table)["aten::flatten.using_ints"] = &decompose_to_view;
  (*table)["aten::reshape.default"] = &decompose_to_view;
  (*table)["aten::unflatten.int"] = &decompose_to_view;
  (*table)["aten::_unsafe_view.default"] = &decompose_to_view;
  (*table)["aten::contiguous.default"] = &decompose_contiguous;
  (*table)["aten::to.dtype"] = &decompose_to_dtype;
  (*table)["aten::type_as.default"] = &decompose_type_as;
  (*table)["aten::to.dtype_layout"] = &decompose_to_any;
  (*table)["aten::to.device"] = &decompose_to_any;
  (*table)["aten::to.other"] = &decompose_to_any;
  (*table)["aten::sum.default"] = &decompose_sum;
}

}  // namespace ember::aot
