// DeadCodePass (see dead_code_pass.h).
#include "aot/passes/dead_code_pass.h"

#include "aot/passes/graph_rewrite.h"

namespace ember::aot {

Status DeadCodePass::run(Graph& graph) const {
  std::vector<int32_t> uses = use_counts(graph);
  std::vector<bool> keep(graph.nodes().size(), true);
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
    keep[i] = false;
    for (const NamedArgument& in : n.inputs) {
      for_each_value(in.arg, [&](ValueId v) { --uses[static_cast<size_t>(v)]; });
    }
  }
  std::vector<Node> kept;
  kept.reserve(graph.nodes().size());
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (keep[i]) kept.push_back(std::move(graph.nodes()[i]));
  }
  graph.nodes() = std::move(kept);
  return Status::ok();
}

}  // namespace ember::aot
