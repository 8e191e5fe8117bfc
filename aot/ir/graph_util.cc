// Producer / user maps over a Graph.
#include "aot/ir/graph_util.h"

namespace ember::aot {

std::vector<int> value_producers(const Graph& g) {
  std::vector<int> out(g.num_values(), -1);
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    for (const Argument& o : g.nodes()[i].outputs) {
      for_each_value(o, [&](ValueId id) {
        if (g.valid_id(id)) out[static_cast<size_t>(id)] = static_cast<int>(i);
      });
    }
  }
  return out;
}

ValueUses compute_uses(const Graph& g) {
  ValueUses uses;
  uses.node_users.resize(g.num_values());
  uses.is_graph_output.assign(g.num_values(), false);
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    for (const NamedArgument& in : g.nodes()[i].inputs) {
      for_each_value(in.arg, [&](ValueId id) {
        if (!g.valid_id(id)) return;
        std::vector<int>& users = uses.node_users[static_cast<size_t>(id)];
        if (users.empty() || users.back() != static_cast<int>(i))
          users.push_back(static_cast<int>(i));
      });
    }
  }
  for (const Argument& o : g.outputs()) {
    for_each_value(o, [&](ValueId id) {
      if (g.valid_id(id)) uses.is_graph_output[static_cast<size_t>(id)] = true;
    });
  }
  return uses;
}

}  // namespace ember::aot
