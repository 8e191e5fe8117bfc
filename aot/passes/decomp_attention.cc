// Decomposition of aten::scaled_dot_product_attention (no dropout, not causal; mask None,
// an additive float mask or a boolean mask, true = attend; enable_gqa) into core ATen:
//   q3 = view(q, [B*H, L, E]); k3 = view(transpose(k, -2, -1), [B*H, E, S]);
//   v3 = view(v, [B*H, S, Ev])
//   s  = mul.Scalar(bmm(q3, k3), scale)          scale = given or 1/sqrt(E)
//   s  = add.Tensor(s, mask)                     when a float mask is given, or
//   s  = add.Tensor(s, where(mask, 0, -inf))     for a boolean one (the bias in q's dtype;
//                                                in q's leading shape when the mask has
//                                                rank > 2)
//   p  = _softmax(s, -1, False); out = view(bmm(p, v3), [B, H, L, Ev])
// Leading (batch, head) dims must be static; L and S may be symbolic (they are matched to
// the inputs' dims by append_view).
#include <cmath>

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

// enable_gqa: key/value [B, Hkv, S, E] with Hq = G * Hkv query heads are repeated per group
// (head h reads kv head h / G): view [B, Hkv, 1, S, E], expand [B, Hkv, G, S, E], view
// [B, Hq, S, E]. Static shapes only (a KV cache is).
Result<ValueId> repeat_kv_heads(Graph& g, ValueId q, ValueId kv, const Node& node, Rewrite* rw) {
  const TensorSpec qs = g.value(q).tensor, ks = g.value(kv).tensor;
  if (qs.rank() != 4 || ks.rank() != 4 || !qs.sizes[1].is_static) {
    return not_supported(node.describe() +
                         ": enable_gqa needs 4-D inputs with a static head count");
  }
  for (const SymInt& d : ks.sizes) {
    if (!d.is_static)
      return not_supported(node.describe() + ": enable_gqa needs a static key/value shape");
  }
  const int64_t hq = qs.sizes[1].value, hk = ks.sizes[1].value;
  if (hq == hk) return kv;
  if (hk <= 0 || hq % hk != 0) {
    return not_supported(node.describe() + ": enable_gqa with " + std::to_string(hq) +
                         " query heads and " + std::to_string(hk) + " key/value heads");
  }
  const int64_t b = ks.sizes[0].value, s = ks.sizes[2].value, e = ks.sizes[3].value, grp = hq / hk;
  auto sym = [](std::vector<int64_t> v) {
    std::vector<SymInt> out;
    for (int64_t x : v) out.push_back(SymInt::of(x));
    return out;
  };
  EMBER_ASSIGN_OR_RETURN(ValueId k5, new_tensor_like(g, kv, "sdpa_kv5", sym({b, hk, 1, s, e})));
  EMBER_TRY(append_view(g, kv, k5, node, rw));
  EMBER_ASSIGN_OR_RETURN(ValueId ke,
                         new_tensor_like(g, kv, "sdpa_kv_rep", sym({b, hk, grp, s, e})));
  rw->nodes.push_back(make_op_node(
      "aten", "expand", "default",
      {named("self", Argument::tensor(k5)), named("size", Argument::int_list({b, hk, grp, s, e}))},
      {Argument::tensor(ke)}, node));
  EMBER_ASSIGN_OR_RETURN(ValueId out, new_tensor_like(g, kv, "sdpa_kv_heads", sym({b, hq, s, e})));
  EMBER_TRY(append_view(g, ke, out, node, rw));
  return out;
}

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
  const bool bool_mask = m != kNoValue && g.value(m).tensor.dtype == ScalarType::Bool;
  const Argument* gqa = input_arg(node, "enable_gqa");
  if (gqa != nullptr && gqa->kind == ArgKind::Bool && gqa->b) {
    EMBER_ASSIGN_OR_RETURN(k, repeat_kv_heads(g, q, k, node, &rw));
    EMBER_ASSIGN_OR_RETURN(v, repeat_kv_heads(g, q, v, node, &rw));
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
    ValueId bias = m;
    if (bool_mask) {
      // true = attend: the mask becomes an additive bias, where(mask, 0, -inf), in q's dtype.
      // It depends on the mask alone, so it is computed once ahead of the attention (and of
      // an XNNPACK delegate, which has no boolean datatype: the add stays inside it); the sum
      // is what masked_fill(scores, !mask, -inf) gives, -inf where masked.
      const ScalarType dt = qs.dtype;
      EMBER_ASSIGN_OR_RETURN(ValueId zero, new_tensor_like(g, q, "sdpa_mask_zero", {}));
      EMBER_ASSIGN_OR_RETURN(ValueId off, new_tensor_like(g, q, "sdpa_mask_ninf", {}));
      rw.nodes.push_back(make_op_node("aten", "scalar_tensor", "default",
                                      {named("s", Argument::floating(0.0)),
                                       {"dtype", Argument::scalar_type(dt), true}},
                                      {Argument::tensor(zero)}, node));
      rw.nodes.push_back(make_op_node("aten", "scalar_tensor", "default",
                                      {named("s", Argument::floating(-INFINITY)),
                                       {"dtype", Argument::scalar_type(dt), true}},
                                      {Argument::tensor(off)}, node));
      EMBER_ASSIGN_OR_RETURN(bias, new_tensor_like(g, q, "sdpa_mask_bias", g.value(m).tensor.sizes));
      rw.nodes.push_back(make_op_node("aten", "where", "self",
                                      {named("condition", Argument::tensor(m)),
                                       named("self", Argument::tensor(zero)),
                                       named("other", Argument::tensor(off))},
                                      {Argument::tensor(bias)}, node));
    }
    rw.nodes.push_back(make_op_node(
        "aten", "add", "Tensor",
        {named("self", Argument::tensor(scores)), named("other", Argument::tensor(bias))},
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
