// torch.ops.higher_order.cond nodes: decoded and flattened into the enclosing graph.
//
// A cond node carries (pred, true_graph, false_graph, operands) as positional arguments; the
// branch graphs come inline (as_graph with its own values, inputs, nodes and outputs). Each
// branch is decoded into a scratch Graph (recursively, so nested conds flatten first), its
// values are added to the enclosing graph under "<cond>_<branch>_<name>" (branch inputs become
// the cond's operands), and the nodes are spliced between the marker nodes described in
// aot/ir/control_flow.h.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "aot/frontend/json_util.h"
#include "aot/ir/graph.h"

namespace ember::aot {

// True when node JSON `j` has target "torch.ops.higher_order.cond".
bool is_cond_node_json(const Json& j);

// Appends the flattened form of cond node `j` (the graph's node number `index`) to *g.
// The predicate is a one-element bool tensor or a SymBool value. Errors: InvalidProgram for a
// malformed node, a predicate of another kind, dtype or size, or branches whose inputs/outputs
// do not match the operands/results; NotSupported for non-tensor operands.
Error decode_cond_node(const Json& j, size_t index, Graph* g);

// True when node JSON `j` has target "torch.ops.higher_order.while_loop".
bool is_while_loop_node_json(const Json& j);

// Appends the flattened form of while_loop node `j` to *g:
//   cond_outputs() -> (out...); copy(init, out)...; label(loop); <cond_fn> ; jump_false(p, end);
//   <body_fn>; copy(next, out)...; jump(loop); label(end)
// Both subgraphs read (out..., additional inputs...). Errors as for cond.
Error decode_while_loop_node(const Json& j, size_t index, Graph* g);

// True when node JSON `j` has target "torch.ops.higher_order.map_impl".
bool is_map_node_json(const Json& j);

// Appends the flattened form of map_impl node `j` (inputs [f, xs, args]) to *g, a loop over
// dim 0 of xs with an Int counter i:
//   cond_outputs() -> (out..., i); move(0, i); [n = sym_size(xs[0], 0)]; label(loop);
//   more = i < n; jump_false(more, end); row_k = select(xs_k, 0, i)...;
//   <f(row..., args...)> -> y...; copy_index(y_k, out_k, i)...; i' = i + 1; move(i', i);
//   jump(loop); label(end)
// Errors: InvalidProgram for a malformed node, xs and results whose leading dims differ, or a
// body whose inputs/results do not match; NotSupported for non-tensor operands.
Error decode_map_node(const Json& j, size_t index, Graph* g);

// True when node JSON `j` is a higher-order wrap (wrap_with_set_grad_enabled,
// wrap_with_autocast: transformers' rotary embedding runs under one).
bool is_wrap_node_json(const Json& j);

// Inlines wrap node `j` into *g: its subgraph's nodes are appended with the inputs bound to
// the operands (the arguments after the subgraph); grad mode and autocast do not matter for
// inference. Each (node result, subgraph result) pair goes to *aliases: the caller points
// later reads of the result at the subgraph's value.
Error decode_wrap_node(const Json& j, size_t index, Graph* g,
                       std::vector<std::pair<ValueId, ValueId>>* aliases);

}  // namespace ember::aot
