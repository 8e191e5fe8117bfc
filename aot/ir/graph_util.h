// Small queries over a Graph that passes need: which node defines a value, which nodes
// use it, and iteration over the values an Argument references. Results are snapshots:
// recompute them after mutating the graph.
#pragma once

#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

// Calls f(ValueId) for every value `arg` references (skips kNoValue entries of
// Tensor?[] and literal entries of SymInt[]).
template <typename F>
void for_each_value(const Argument& arg, F f) {
  for (ValueId id : arg.values) {
    if (id != kNoValue) f(id);
  }
}

// For every ValueId: the index of the node that outputs it, or -1 (graph input, unused).
std::vector<int> value_producers(const Graph& graph);

struct ValueUses {
  std::vector<std::vector<int>> node_users;  // per ValueId: using node indices, ascending
  std::vector<bool> is_graph_output;         // per ValueId
};
ValueUses compute_uses(const Graph& graph);

}  // namespace ember::aot
