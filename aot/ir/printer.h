// Human-readable text form of a Graph: one line per input, node and output.
//
//   graph (schema 8.2, torch 2.6.0+debian, legacy_zip)
//     symbol s0 in [1, 64]
//     %p_w : f32[8, 3] = input PARAMETER 'w' const 96 B
//     %x : f32[s0, 3] = input USER_INPUT
//     %addmm : f32[s0, 8] = aten::addmm.default(self=%b, mat1=%x, mat2=%t)  # model.py:12
//     output %addmm USER_OUTPUT
//
// Node arguments are printed as the export wrote them (defaults not filled in), in the
// file's order. Used by tools, golden tests and the pass pipeline's dump hooks.
#pragma once

#include <string>

#include "aot/ir/graph.h"

namespace ember::aot {

struct PrintOptions {
  bool show_header = true;     // the "graph (...)" line and symbols
  bool show_locations = true;  // "  # file.py:97" after each node
};

std::string print_graph(const Graph& graph, const PrintOptions& options = {});
// One argument: "%x", "[1, 1]", "0.1", "None", "f32", "[%a, %b]".
std::string print_argument(const Graph& graph, const Argument& arg);
// One node line without indentation or trailing newline.
std::string print_node(const Graph& graph, const Node& node, bool show_location = true);

}  // namespace ember::aot
