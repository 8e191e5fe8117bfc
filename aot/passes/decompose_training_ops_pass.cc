// DecomposeTrainingOpsPass (see decompose_training_ops_pass.h).
#include "aot/passes/decompose_training_ops_pass.h"

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool is_graph_input(const Graph& g, ValueId v) {
  for (const Argument& in : g.inputs()) {
    if (tensor_of(in) == v) return true;
  }
  return false;
}

bool is_graph_output(const Graph& g, ValueId v) {
  for (const Argument& out : g.outputs()) {
    if (tensor_of(out) == v) return true;
  }
  return false;
}

}  // namespace

Error DecomposeTrainingOpsPass::run(Graph& graph) const {
  const DecompositionTable& table = training_ir_decompositions();
  std::vector<Node> old = std::move(graph.nodes());
  graph.nodes().clear();
  std::vector<std::pair<ValueId, ValueId>> aliases;  // (from, to), applied as we go
  for (size_t i = 0; i < old.size(); ++i) {
    Node node = std::move(old[i]);
    for (auto& [from, to] : aliases) {
      for (NamedArgument& in : node.inputs) {
        for (ValueId& v : in.arg.values) {
          if (v == from) v = to;
        }
      }
    }
    auto rule = node.kind == NodeKind::Op ? table.find(node.op.qualified()) : table.end();
    if (rule == table.end()) {
      graph.nodes().push_back(std::move(node));
      continue;
    }
    EMBER_ASSIGN_OR_RETURN(Rewrite rw, rule->second(graph, node));
    if (rw.alias_of == kNoValue) {
      for (Node& n : rw.nodes) graph.nodes().push_back(std::move(n));
      continue;
    }
    ValueId out = node_output(node);
    if (is_graph_output(graph, out) && is_graph_input(graph, rw.alias_of)) {
      graph.nodes().push_back(make_op_node("aten", "clone", "default",
                                           {{"self", Argument::tensor(rw.alias_of), false}},
                                           node.outputs, node));
      continue;
    }
    aliases.push_back({out, rw.alias_of});
    for (Argument& o : graph.outputs()) {
      for (ValueId& v : o.values) {
        if (v == out) v = rw.alias_of;
      }
    }
  }
  return Error::Ok;
}

}  // namespace ember::aot
