// Control flow in the flat AoT graph.
//
// The frontend flattens torch.ops.higher_order.cond into marker nodes of namespace "ember"
// around the inlined branch bodies, so every pass sees the body ops as ordinary nodes:
//
//   ember::cond_outputs()            -> (out0, out1, ...)   defines the cond's results
//   ember::jump_false(pred, "L_else")                       skip the true body when !pred
//   <true body>   ember::move(src, out_k) ...               results of the true branch
//   ember::jump("L_end")                                    skip the false body
//   ember::label("L_else")
//   <false body>  ember::move(src, out_k) ...
//   ember::label("L_end")
//
// The emitter turns jump_false into JumpFalseCall, jump into JumpFalseCall on a constant
// false, move into MoveCall and labels into instruction indices (as ExecuTorch's emitter does
// for cond). A move makes out_k alias src at run time, so memory planning keeps src alive as
// long as out_k. while_loop flattens the same way with a backward jump and `copy` (the data,
// emitted as aten::copy.out) for the loop state (aot/frontend/cond_json.h); values used inside
// a loop are planned live for the whole loop. map flattens into a counted loop: an Int
// counter (a SymInt value reset by a move of the literal 0), select of each xs row,
// `copy_index` (executorch_prim::et_copy_index.tensor) of each body result into row i of the
// stacked result, and executorch_prim add/lt on the counter. Labels are strings unique in the graph; passes must keep marker nodes in
// place (they have no outputs except cond_outputs, so dead-code removal keeps them) and the
// partitioner never groups across them (they are "ember" nodes).
#pragma once

#include <string>

#include "aot/ir/node.h"

namespace ember::aot {

enum class ControlOp : uint8_t {
  None,         // not a control-flow marker
  CondOutputs,  // ember::cond_outputs
  JumpFalse,    // ember::jump_false(Tensor pred, str label)
  Jump,         // ember::jump(str label)
  Label,        // ember::label(str label)
  Move,         // ember::move(Tensor src, Tensor dst)
  Copy,         // ember::copy(Tensor src, Tensor dst): copies the data (while_loop state)
  CopyIndex,    // ember::copy_index(Tensor src, Tensor dst, SymInt index): dst[index] = src (map)
};

inline ControlOp control_op(const Node& n) {
  if (n.kind != NodeKind::Op || n.op.ns != "ember") return ControlOp::None;
  if (n.op.name == "cond_outputs") return ControlOp::CondOutputs;
  if (n.op.name == "jump_false") return ControlOp::JumpFalse;
  if (n.op.name == "jump") return ControlOp::Jump;
  if (n.op.name == "label") return ControlOp::Label;
  if (n.op.name == "move") return ControlOp::Move;
  if (n.op.name == "copy") return ControlOp::Copy;
  if (n.op.name == "copy_index") return ControlOp::CopyIndex;
  return ControlOp::None;
}

// The marker node `ember::<name>.default` (target "ember.<name>").
inline Node control_node(const std::string& name, std::vector<NamedArgument> inputs,
                         std::vector<Argument> outputs, const std::string& node_name,
                         const std::string& stack_trace) {
  Node n;
  n.kind = NodeKind::Op;
  n.op = OpName{"ember", name, "default"};
  n.target = "ember." + name;
  n.inputs = std::move(inputs);
  n.outputs = std::move(outputs);
  n.name = node_name;
  n.stack_trace = stack_trace;
  if (!stack_trace.empty()) n.metadata["stack_trace"] = stack_trace;
  return n;
}

}  // namespace ember::aot
