// DeadCodePass (see dead_code_pass.h).
#include "aot/passes/dead_code_pass.h"

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

Error DeadCodePass::run(Graph& graph) const {
  std::vector<int32_t> uses = use_counts(graph);
  std::vector<bool> drop(graph.nodes().size(), false);
  for (size_t i = graph.nodes().size(); i-- > 0;) {
    const Node& n = graph.nodes()[i];
    bool has_output = false;
    bool used = false;
    for (const Argument& out : n.outputs) {
      for_each_value(out, [&](ValueId v) {
        has_output = true;
        if (uses[static_cast<size_t>(v)] > 0) used = true;
      });
    }
    if (!has_output || used) continue;
    drop[i] = true;
    for (const NamedArgument& in : n.inputs) {
      for_each_value(in.arg, [&](ValueId v) { --uses[static_cast<size_t>(v)]; });
    }
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
