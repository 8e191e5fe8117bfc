// Decompositions of the matrix-multiply family into core ATen:
//   linear(x, W, b)   -> permute(W, [1, 0]); addmm(b, x, Wt)   (mm without bias; inputs of
//                        rank 1 or > 2 are viewed to 2-D first and the result viewed back,
//                        as torch's core ATen decomposition writes a rank-1 linear)
//   matmul(a, b)      -> mm (2-D x 2-D), view + mm + view (N-D x 2-D), bmm (3-D x 3-D),
//                        view + bmm + view (equal-rank N-D with equal batch dims)
//   t(x)              -> permute(x, [1, 0]) (rank 2), alias (rank < 2)
#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

// permute(w, [1, 0]) appended to rw; returns the transposed value.
Result<ValueId> transpose2d(Graph& g, ValueId w, const Node& origin, Rewrite* rw) {
  const TensorSpec& ws = g.value(w).tensor;
  EMBER_ASSIGN_OR_RETURN(ValueId wt, new_tensor_like(g, w, "permute", {ws.sizes[1], ws.sizes[0]}));
  rw->nodes.push_back(make_op_node("aten", "permute", "default",
                                   {named("self", Argument::tensor(w)),
                                    named("dims", Argument::int_list({1, 0}))},
                                   {Argument::tensor(wt)}, origin));
  return wt;
}

// out = a2d @ b2d (+ bias) for 2-D operands.
void append_mm(ValueId a, ValueId b, ValueId bias, ValueId out, const Node& origin, Rewrite* rw) {
  if (bias != kNoValue) {
    rw->nodes.push_back(make_op_node("aten", "addmm", "default",
                                     {named("self", Argument::tensor(bias)),
                                      named("mat1", Argument::tensor(a)),
                                      named("mat2", Argument::tensor(b))},
                                     {Argument::tensor(out)}, origin));
  } else {
    rw->nodes.push_back(make_op_node("aten", "mm", "default",
                                     {named("self", Argument::tensor(a)),
                                      named("mat2", Argument::tensor(b))},
                                     {Argument::tensor(out)}, origin));
  }
}

// The product of all dims but the last: static, or a fresh symbol (viewed as -1) whose
// range is the product of the dims' ranges.
Result<SymInt> leading_product(const TensorSpec& xs, const std::string& name, const Node& origin) {
  SymInt rows = SymInt::of(1);
  int64_t max = 1, hint = 1;
  std::string text;
  bool symbolic = false;
  for (size_t d = 0; d + 1 < xs.rank(); ++d) {
    const SymInt& s = xs.sizes[d];
    if (!s.is_static && !s.range.max) {
      return not_supported(origin.describe() + ": dim " + std::to_string(d) + " of " +
                           xs.to_string() + " has no upper bound");
    }
    symbolic = symbolic || !s.is_static;
    max *= s.is_static ? s.value : *s.range.max;
    hint *= s.is_static ? s.value : s.hint.value_or(*s.range.max);
    text += (text.empty() ? "" : "*") + s.to_string();
  }
  if (!symbolic) return SymInt::of(max);
  rows.is_static = false;
  rows.value = 0;
  rows.expr = "rows_of_" + name;
  rows.text = text;
  rows.hint = hint;
  rows.range = SymRange{0, max};
  return rows;
}

Result<Rewrite> decompose_linear(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  EMBER_ASSIGN_OR_RETURN(ValueId w, tensor_input(node, "weight"));
  const Argument* bias = input_arg(node, "bias");
  ValueId b = bias == nullptr ? kNoValue : tensor_of(*bias);
  if (g.value(w).tensor.rank() != 2) {
    return invalid_program(node.describe() + ": weight " + g.value(w).tensor.to_string() +
                           " must be 2-D");
  }
  EMBER_ASSIGN_OR_RETURN(ValueId wt, transpose2d(g, w, node, &rw));
  EMBER_TRY(append_nd_by_2d(g, x, wt, b, node_output(node), node, &rw));
  return rw;
}

Result<Rewrite> decompose_matmul(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId a, tensor_input(node, "self"));
  EMBER_ASSIGN_OR_RETURN(ValueId b, tensor_input(node, "other"));
  ValueId out = node_output(node);
  const TensorSpec as = g.value(a).tensor;
  const TensorSpec bs = g.value(b).tensor;
  if (bs.rank() == 2 && as.rank() >= 2) {
    EMBER_TRY(append_nd_by_2d(g, a, b, kNoValue, out, node, &rw));
    return rw;
  }
  if (as.rank() == 3 && bs.rank() == 3) {
    rw.nodes.push_back(make_op_node("aten", "bmm", "default",
                                    {named("self", Argument::tensor(a)),
                                     named("mat2", Argument::tensor(b))},
                                    {Argument::tensor(out)}, node));
    return rw;
  }
  if (as.rank() == bs.rank() && as.rank() > 3 && as.is_static() && bs.is_static()) {
    int64_t batch = 1;
    for (size_t d = 0; d + 2 < as.rank(); ++d) {
      if (as.sizes[d].value != bs.sizes[d].value) {
        return not_supported(node.describe() + ": broadcasting batch dims in matmul");
      }
      batch *= as.sizes[d].value;
    }
    size_t r = as.rank();
    EMBER_ASSIGN_OR_RETURN(ValueId a3, new_tensor_like(g, a, "view", {SymInt::of(batch), as.sizes[r - 2], as.sizes[r - 1]}));
    EMBER_ASSIGN_OR_RETURN(ValueId b3, new_tensor_like(g, b, "view", {SymInt::of(batch), bs.sizes[r - 2], bs.sizes[r - 1]}));
    EMBER_ASSIGN_OR_RETURN(ValueId o3, new_tensor_like(g, out, "bmm", {SymInt::of(batch), as.sizes[r - 2], bs.sizes[r - 1]}));
    EMBER_TRY(append_view(g, a, a3, node, &rw));
    EMBER_TRY(append_view(g, b, b3, node, &rw));
    rw.nodes.push_back(make_op_node("aten", "bmm", "default",
                                    {named("self", Argument::tensor(a3)),
                                     named("mat2", Argument::tensor(b3))},
                                    {Argument::tensor(o3)}, node));
    EMBER_TRY(append_view(g, o3, out, node, &rw));
    return rw;
  }
  return not_supported(node.describe() + ": matmul of " + as.to_string() + " and " +
                       bs.to_string() + " is not supported");
}

Result<Rewrite> decompose_t(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  if (g.value(x).tensor.rank() < 2) {
    rw.alias_of = x;
    return rw;
  }
  rw.nodes.push_back(make_op_node("aten", "permute", "default",
                                  {named("self", Argument::tensor(x)),
                                   named("dims", Argument::int_list({1, 0}))},
                                  node.outputs, node));
  return rw;
}

}  // namespace

Error append_nd_by_2d(Graph& g, ValueId x, ValueId w2, ValueId bias, ValueId out,
                       const Node& origin, Rewrite* rw) {
  const TensorSpec xs = g.value(x).tensor;
  if (xs.rank() == 2) {
    append_mm(x, w2, bias, out, origin, rw);
    return Error::Ok;
  }
  if (xs.rank() < 1) {
    return not_supported(origin.describe() + ": input of rank " + std::to_string(xs.rank()) +
                         " is not supported");
  }
  EMBER_ASSIGN_OR_RETURN(SymInt rows, leading_product(xs, g.value(x).name, origin));
  SymInt n = g.value(w2).tensor.sizes[1];
  EMBER_ASSIGN_OR_RETURN(ValueId x2, new_tensor_like(g, x, "view", {rows, xs.sizes.back()}));
  EMBER_TRY(append_view(g, x, x2, origin, rw));
  EMBER_ASSIGN_OR_RETURN(ValueId y2, new_tensor_like(g, out, "mm", {rows, n}));
  append_mm(x2, w2, bias, y2, origin, rw);
  return append_view(g, y2, out, origin, rw);
}

void add_linear_decompositions(DecompositionTable* table) {
  (*table)["aten::linear.default"] = &decompose_linear;
  (*table)["aten::matmul.default"] = &decompose_matmul;
  (*table)["aten::t.default"] = &decompose_t;
}

}  // namespace ember::aot
