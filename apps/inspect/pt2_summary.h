// Summaries of a read .pt2 graph for the `inspect` tool: user inputs/outputs with dtypes
// and (symbolic) shapes, symbol ranges, an op histogram (ops without an aot/ir schema are
// marked "(no schema)"), sizes of parameters, buffers and
// lifted constants, and buffer mutations — as text or as JSON.
#pragma once

#include <string>

#include "aot/ir/graph.h"

namespace ember::aot {

// Human-readable summary; with `with_graph` the printed graph is appended.
std::string summarize_pt2_text(const Graph& graph, bool with_graph);
// The same facts as a JSON document (pretty-printed, 2-space indent).
std::string summarize_pt2_json(const Graph& graph, bool with_graph);

}  // namespace ember::aot
