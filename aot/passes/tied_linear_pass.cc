// TiedLinearPass (see tied_linear_pass.h).
#include "aot/passes/tied_linear_pass.h"

#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/graph_util.h"
#include "aot/passes/constant_weights.h"
#include "aot/passes/linear_views.h"

namespace ember::aot {
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
    absorb_linear_views(graph, producer, users, i, &drop);
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
