// TiedLinearPass (see tied_linear_pass.h).
#include "aot/passes/tied_linear_pass.h"

#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/graph_util.h"
#include "aot/passes/constant_weights.h"

namespace ember::aot {
namespace {

bool same_dim(const SymInt& a, const SymInt& b) {
  return a.is_static == b.is_static && (a.is_static ? a.value == b.value : a.expr == b.expr);
}

bool is_view(const Node& n) {
  return (is_aten_op(n, "view", "default") || is_aten_op(n, "view_copy", "default")) &&
         n.outputs.size() == 1;
}

// The linear at node `i` reads x2 = view(x, [rows, K]) and its output y2 is read only by
// y = view(y2, [x's leading dims, N]) (how linear / matmul decompose an N-D input): the linear
// takes x and writes y itself, as linear does for any rank. Without the views, y is not a copy of
// y2 (for a decoder's tied head, a second [n, vocab] logits tensor: 12.6 MB at 64 tokens on
// SmolLM2-135M), and the XNNPACK recipe has no one-reshape partition after the head.
void absorb_views(Graph& graph, const std::vector<int>& producer, const ValueUses& uses, size_t i,
                  std::vector<bool>* drop) {
  Node& lin = graph.nodes()[i];
  const ValueId x2 = optional_tensor_input(lin, "input");
  const ValueId y2 = tensor_of(lin.outputs[0]);
  if (x2 == kNoValue || y2 == kNoValue || producer[size_t(x2)] < 0) return;
  const Node& in_view = graph.nodes()[size_t(producer[size_t(x2)])];
  if (!is_view(in_view) || uses.node_users[size_t(x2)].size() != 1 || uses.is_graph_output[size_t(x2)] ||
      uses.node_users[size_t(y2)].size() != 1 || uses.is_graph_output[size_t(y2)]) {
    return;
  }
  const size_t u = size_t(uses.node_users[size_t(y2)][0]);
  const Node& out_view = graph.nodes()[u];
  const ValueId x = optional_tensor_input(in_view, "self");
  const ValueId y = tensor_of(out_view.outputs[0]);
  if (!is_view(out_view) || x == kNoValue || y == kNoValue) return;
  const TensorSpec& xs = graph.value(x).tensor;
  const TensorSpec& x2s = graph.value(x2).tensor;
  const TensorSpec& y2s = graph.value(y2).tensor;
  const TensorSpec& ys = graph.value(y).tensor;
  if (xs.rank() < 2 || x2s.rank() != 2 || y2s.rank() != 2 || ys.rank() != xs.rank() ||
      !same_dim(xs.sizes.back(), x2s.sizes[1]) || !same_dim(ys.sizes.back(), y2s.sizes[1]) ||
      xs.dtype != x2s.dtype || ys.dtype != y2s.dtype) {
    return;
  }
  for (size_t d = 0; d + 1 < xs.rank(); ++d) {
    if (!same_dim(xs.sizes[d], ys.sizes[d])) return;
  }
  for (NamedArgument& a : lin.inputs) {
    if (a.name == "input") a.arg = Argument::tensor(x);
  }
  lin.outputs = out_view.outputs;
  (*drop)[size_t(producer[size_t(x2)])] = true;
  (*drop)[u] = true;
}

}  // namespace

Error TiedLinearPass::run(Graph& graph) const {
  const std::vector<int> producer = value_producers(graph);
  const std::vector<int32_t> uses = use_counts(graph);
  const ValueUses users = compute_uses(graph);
  std::vector<bool> drop(graph.nodes().size(), false);
  // Reads of each constant other than through a transposing permute.
  std::vector<int32_t> direct_uses = uses;
  for (size_t v = 0; v < graph.num_values(); ++v) {
    const ValueId w = transposed_constant(graph, producer, ValueId(v));
    if (w != kNoValue) --direct_uses[size_t(w)];
  }
  std::vector<int32_t> remaining = uses;  // uses of each permute output still left
  bool changed = false;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Node& n = graph.nodes()[i];
    const bool mm = is_aten_op(n, "mm", "default");
    const bool addmm = is_aten_op(n, "addmm", "default");
    if ((!mm && !addmm) || n.outputs.size() != 1) continue;
    const ValueId x = optional_tensor_input(n, mm ? "self" : "mat1");
    const ValueId wt = optional_tensor_input(n, mm ? "mat2" : "mat2");
    if (x == kNoValue || wt == kNoValue) continue;
    const ValueId w = transposed_constant(graph, producer, wt);
    if (w == kNoValue || direct_uses[size_t(w)] <= 0) continue;  // not tied: FoldConstantPermute
    Argument bias = Argument::none();
    if (addmm) {
      const ValueId b = optional_tensor_input(n, "self");
      const TensorSpec& ws = graph.value(w).tensor;
      if (b == kNoValue || !is_one(n, "beta") || !is_one(n, "alpha")) continue;
      const TensorSpec& bs = graph.value(b).tensor;
      if (bs.rank() != 1 || !bs.sizes[0].is_static || bs.sizes[0].value != ws.sizes[0].value) continue;
      bias = Argument::tensor(b);
    }
    std::vector<NamedArgument> inputs;
    inputs.push_back({"input", Argument::tensor(x)});
    inputs.push_back({"weight", Argument::tensor(w)});
    inputs.push_back({"bias", std::move(bias)});
    n = make_op_node("aten", "linear", "default", std::move(inputs), n.outputs, n);
    --remaining[size_t(wt)];
    changed = true;
    absorb_views(graph, producer, users, i, &drop);
  }
  if (!changed) return Error::Ok;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    if (n.outputs.size() != 1) continue;
    const ValueId out = tensor_of(n.outputs[0]);
    if (out != kNoValue && transposed_constant(graph, producer, out) != kNoValue &&
        uses[size_t(out)] > 0 && remaining[size_t(out)] == 0) {
      drop[i] = true;
    }
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
