// make_printable: every string a .pt2 put into a Graph, escaped with apps::printable() before
// inspect prints the graph as text or Graphviz (issue #33: a stack_trace carrying ESC[8m or
// "\n<tool>: OK ..." forged lines and hid output). The graph printers live in aot/ (which
// cannot use apps/), so inspect escapes a copy of the graph instead of each printer.
//
// Names, op names, FQNs, string arguments, symbol texts and the program info are replaced by
// their printable() form. A stack_trace is replaced by one frame, `File "<file>", line <n>`,
// holding the escaped file of its user frame (Node::source_location()), so the printed
// "# model.py:12" stays what it was for an honest file and cannot carry control bytes.
#pragma once

#include "aot/ir/graph.h"

namespace ember::aot {

void make_printable(Graph* graph);

}  // namespace ember::aot
