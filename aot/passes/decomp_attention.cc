// Decomposition of aten::scaled_dot_product_attention (no dropout, not causal; mask None
// or an additive float mask) into core ATen:
//   q3 = view(q, [B*H, L, E]); k3 = view(transpose(k, -2, -1), [B*H, E, S]);
//   v3 = view(v, [B*H, S, Ev])
//   s  = mul.Scalar(bmm(q3, k3), scale)          scale = given or 1/sqrt(E)
//   s  = add.Tensor(s, mask)                     when a float mask is given (in q's
//                                                leading shape when the mask has rank > 2)
//   p  = _softmax(s, -1, False); out = view(bmm(p, v3), [B, H, L, Ev])
// Leading (batch, head) dims must be static; L and S may be symbolic (they are matched to
// the inputs' dims by append_view).
#include <cmath>

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

Result<Rewrite> decompose_sdpa(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId q, tensor_input(node, "query"));
  EMBER_ASSIGN_OR_RETURN(ValueId k, tensor_input(node, "key"));
  EMBER_ASSIGN_OR_RETURN(ValueId v, tensor_input(node, "value"));
  const Argument* dropout = input_arg(node, "dropout_p");
  const Argument* causal = input_arg(node, "is_causal");
  const Argument* mask = input_arg(node, "attn_mask");
  const Argument* scale_arg = input_arg(node, "scale");
  if ((dropout != nullptr && dropout->f != 0.0) || (causal != nullptr && causal->b)) {
    return not_supported(node.describe() + ": attention with dropout or is_causal=True");
  }
  ValueId m = mask == nullptr ? kNoValue : tensor_of(*mask);
  if (m != kNoValue && g.value(m).tensor.dtype == ScalarType::Bool) {
    return not_supported(node.describe() + ": boolean attention masks");
  }
  const TensorSpec qs = g.value(q).tensor, ks = g.value(k).tensor, vs = g.value(v).tensor;
  size_t r = qs.rank();
  if (r < 3 || ks.rank() != r || vs.rank() != r) {
    return not_supported(node.describe() + ": attention inputs must have equal rank >= 3");
  }
  int64_t batch = 1;
  for (size_t d = 0; d + 2 < r; ++d) {
    if (!qs.sizes[d].is_static || !ks.sizes[d].is_static || qs.sizes[d].value != ks.sizes[d].value) {
      return not_supported(node.describe() + ": batch/head dims must be static and equal");
    }
    batch *= qs.sizes[d].value;
  }
  SymInt bh = SymInt::of(batch), L = qs.sizes[r - 2], E = qs.sizes[r - 1], S = ks.sizes[r - 2],
         Ev = vs.sizes[r - 1];
  if (!E.is_static) return not_supported(node.describe() + ": symbolic head dim");
  double scale = scale_arg != nullptr && scale_arg->kind == ArgKind::Float
                     ? scale_arg->f
                     : 1.0 / std::sqrt(static_cast<double>(E.value));
  ValueId out = node_output(node);
  EMBER_ASSIGN_OR_RETURN(ValueId q3, new_tensor_like(g, q, "sdpa_q", {bh, L, E}));
  EMBER_TRY(append_view(g, q, q3, node, &rw));
  std::vector<SymInt> kt_sizes = ks.sizes;
  std::swap(kt_sizes[r - 2], kt_sizes[r - 1]);
  EMBER_ASSIGN_OR_RETURN(ValueId kt, new_tensor_like(g, k, "sdpa_kt", kt_sizes));
  rw.nodes.push_back(make_op_node("aten", "transpose", "int",
                                  {named("self", Argument::tensor(k)),
                                   named("dim0", Argument::integer(static_cast<int64_t>(r) - 2)),
                                   named("dim1", Argument::integer(static_cast<int64_t>(r) - 1))},
                                  {Argument::tensor(kt)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId k3, new_tensor_like(g, k, "sdpa_k", {bh, E, S}));
  EMBER_TRY(append_view(g, kt, k3, node, &rw));
  EMBER_ASSIGN_OR_RETURN(ValueId v3, new_tensor_like(g, v, "sdpa_v", {bh, S, Ev}));
  EMBER_TRY(append_view(g, v, v3, node, &rw));
  EMBER_ASSIGN_OR_RETURN(ValueId s0, new_tensor_like(g, q, "sdpa_scores", {bh, L, S}));
  rw.nodes.push_back(make_op_node("aten", "bmm", "default",
                                  {named("self", Argument::tensor(q3)), named("mat2", Argument::tensor(k3))},
                                  {Argument::tensor(s0)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId s1, new_tensor_like(g, q, "sdpa_scaled", {bh, L, S}));
  rw.nodes.push_back(make_op_node("aten", "mul", "Scalar",
                                  {named("self", Argument::tensor(s0)), named("other", Argument::floating(scale))},
                                  {Argument::tensor(s1)}, node));
  if (m != kNoValue) {
    // A mask of rank > 2 broadcasts over the (batch, head) dims: add in q's leading shape.
    const bool lead = g.value(m).tensor.rank() > 2 && r > 3;
    std::vector<SymInt> full(qs.sizes.begin(), qs.sizes.end() - 2);
    full.push_back(L);
    full.push_back(S);
    ValueId scores = s1;
    if (lead) {
      EMBER_ASSIGN_OR_RETURN(scores, new_tensor_like(g, q, "sdpa_scores4", full));
      EMBER_TRY(append_view(g, s1, scores, node, &rw));
    }
    EMBER_ASSIGN_OR_RETURN(ValueId s2, new_tensor_like(g, q, "sdpa_masked", lead ? full : std::vector<SymInt>{bh, L, S}));
    rw.nodes.push_back(make_op_node("aten", "add", "Tensor",
                                    {named("self", Argument::tensor(scores)), named("other", Argument::tensor(m))},
                                    {Argument::tensor(s2)}, node));
    s1 = s2;
    if (lead) {
      EMBER_ASSIGN_OR_RETURN(s1, new_tensor_like(g, q, "sdpa_masked3", {bh, L, S}));
      EMBER_TRY(append_view(g, s2, s1, node, &rw));
    }
  }
  EMBER_ASSIGN_OR_RETURN(ValueId p, new_tensor_like(g, q, "sdpa_probs", {bh, L, S}));
  rw.nodes.push_back(make_op_node("aten", "_softmax", "default",
                                  {named("self", Argument::tensor(s1)), named("dim", Argument::integer(-1)),
                                   named("half_to_float", Argument::boolean(false))},
                                  {Argument::tensor(p)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId o3, new_tensor_like(g, q, "sdpa_out", {bh, L, Ev}));
  rw.nodes.push_back(make_op_node("aten", "bmm", "default",
                                  {named("self", Argument::tensor(p)), named("mat2", Argument::tensor(v3))},
                                  {Argument::tensor(o3)}, node));
  EMBER_TRY(append_view(g, o3, out, node, &rw));
  return rw;
}

}  // namespace

void add_attention_decompositions(DecompositionTable* table) {
  (*table)["aten::scaled_dot_product_attention.default"] = &decompose_sdpa;
}

}  // namespace ember::aot
