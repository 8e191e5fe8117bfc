// Graphviz (dot) picture of an AoT graph for `inspect --dot`: one box per node (op and
// output spec), one ellipse per graph input (constants grey), edges from each value's
// producer to its users, and the graph outputs as a double-circle sink.
#pragma once

#include <string>

#include "aot/ir/graph.h"

namespace ember::aot {

std::string graph_to_dot(const Graph& graph);

}  // namespace ember::aot
