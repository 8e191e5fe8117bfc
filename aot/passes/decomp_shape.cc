// Decompositions of shape and conversion training-IR ops:
//   flatten.using_ints / reshape / unflatten.int / _unsafe_view -> view(x, out sizes)
//   contiguous(x)  -> x (alias) when x is contiguous, else clone(x, contiguous_format)
//   to.dtype(x, t) -> _to_copy(x, dtype=t)
//   to.dtype_layout / to.device / to.other -> x, or _to_copy to the result's dtype
//   type_as(x, y) -> _to_copy(x, dtype=y's dtype)
//   sum.default(x) -> sum.dim_IntList(x, None)
//   sym_stride.int(x, d) -> the constant stride of dim d in x's dim order (static inner sizes)
//   sym_storage_offset(x) -> the constant 0
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

// Replaces the node with nothing and makes its SymInt output the constant `v` (emitted as an
// Int value, which is what every reader of the SymInt then sees).
Result<Rewrite> constant_sym_int(Graph& g, const Node& node, int64_t v) {
  if (node.outputs.size() != 1 || node.outputs[0].kind != ArgKind::SymInt ||
      node.outputs[0].values.size() != 1) {
    return invalid_program(node.describe() + ": expected one SymInt output");
  }
  g.value(node.outputs[0].values[0]).sym = SymInt::of(v);
  return Rewrite{};
}

// Ember tensors are dense buffers laid out in their dim order (a view torch would keep at an
// offset with its base's strides is its own buffer here), so a tensor's strides and storage
// offset are known when its inner sizes are.
Result<Rewrite> decompose_sym_stride(Graph& g, const Node& node) {
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const TensorSpec& spec = g.value(x).tensor;
  const Argument* dim = input_arg(node, "dim");
  const int64_t rank = static_cast<int64_t>(spec.sizes.size());
  if (dim == nullptr || !dim->values.empty()) {
    return invalid_program(node.describe() + ": dim must be a constant int");
  }
  const int64_t d = dim->i < 0 ? dim->i + rank : dim->i;
  if (d < 0 || d >= rank) {
    return invalid_program(node.describe() + ": dim " + std::to_string(dim->i) +
                           " is out of range for " + spec.to_string());
  }
  int64_t stride = 1;
  bool inner = false;
  for (size_t k = 0; k < spec.sizes.size(); ++k) {  // dim order: outermost first
    const size_t dk = spec.dim_order.size() == spec.sizes.size() ? spec.dim_order[k] : k;
    if (inner) {
      if (!spec.sizes[dk].is_static) {
        return not_supported(node.describe() + ": the stride of dim " + std::to_string(d) +
                             " of " + spec.to_string() + " depends on symbolic size " +
                             spec.sizes[dk].to_string());
      }
      stride *= spec.sizes[dk].value;
    }
    inner = inner || static_cast<int64_t>(dk) == d;
  }
  return constant_sym_int(g, node, stride);
}

Result<Rewrite> decompose_sym_storage_offset(Graph& g, const Node& node) {
  return constant_sym_int(g, node, 0);
}

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
  (*table)["aten::sym_stride.int"] = &decompose_sym_stride;
  (*table)["aten::sym_storage_offset.default"] = &decompose_sym_storage_offset;
}

}  // namespace ember::aot
