// RemoveIdentityCopyPass (see remove_identity_copy_pass.h).
#include "aot/passes/remove_identity_copy_pass.h"

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

Error RemoveIdentityCopyPass::run(Graph& graph) const {
  const ValueUses uses = compute_uses(graph);
  std::vector<bool> drop(graph.nodes().size(), false);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    if (!is_aten_op(n, "_to_copy", "default") || n.outputs.size() != 1) continue;
    const ValueId x = optional_tensor_input(n, "self");
    const ValueId y = tensor_of(n.outputs[0]);
    if (x == kNoValue || y == kNoValue || uses.is_graph_output[size_t(y)]) continue;
    const TensorSpec& xs = graph.value(x).tensor;
    const TensorSpec& ys = graph.value(y).tensor;
    if (xs.dtype != ys.dtype || xs.rank() != ys.rank() || xs.dim_order != ys.dim_order) continue;
    bool plain = true;
    for (const NamedArgument& a : n.inputs) {
      if (a.name == "self" || a.arg.kind == ArgKind::None) continue;
      if (a.name == "dtype") {
        plain = plain && a.arg.kind == ArgKind::ScalarType && a.arg.dtype == xs.dtype;
      } else if (a.name == "memory_format") {
        plain = plain && (a.arg.i == 1 || a.arg.i == 4);  // contiguous, preserve
      } else if (a.name == "non_blocking" || a.name == "copy") {
        continue;
      } else if (a.name == "layout" || a.name == "device" || a.name == "pin_memory") {
        continue;  // CPU, strided: the only ones Ember runs
      } else {
        plain = false;
      }
    }
    if (!plain) continue;
    replace_uses(graph, y, x, i + 1);
    drop[i] = true;
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
