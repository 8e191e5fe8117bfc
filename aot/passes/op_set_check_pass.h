// OpSetCheckPass (edge dialect): every remaining op must be in Ember's core-ATen set.
//
// Before: any ATen graph.  After: unchanged, or an error listing EVERY offending node.
// An op is accepted when it has no training-IR decomposition (decompositions.h) and its
// schema (aot/ir/op_schema_table.cc) names an out variant (it has a kernel form), or it is a symbolic-size op (aten::sym_size.int, sym_numel) or a
// Python scalar op on SymInts. Each offending node is listed with its name, op, the user's
// source line and a suggestion (a decomposition exists / run_decompositions() / add a
// schema; for an operator outside aten, declare it with lower --custom_ops). Custom operators
// declared on the graph (Graph::custom_op_schemas) are in the set. The status code is
// kOperatorMissing.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class OpSetCheckPass final : public Pass {
 public:
  const char* name() const override { return "op_set_check"; }
  Error run(Graph& graph) const override;
};

// True when `node` is in the edge op set described above (`graph`'s custom operators
// included; the one-argument form knows the built-in table only).
bool is_edge_op(const Node& node, const Graph& graph);
bool is_edge_op(const Node& node);

}  // namespace ember::aot
