// emit_graph: the emit step. Turns a graph in the executorch dialect (out
// variants, memory planned, optionally delegate-call nodes) into an EmitProgram that
// write_pte() serializes (aot/emit). Follows pte-format.md §1.5 and §4.2:
//
//   - the method's inputs are the user inputs in signature order, its outputs the user
//     outputs only (buffer mutations stay inside: each mutated buffer is planned with its
//     initial contents as mutable data and written back by an aten::copy.out after the
//     last node);
//   - parameters, buffers and lifted constants become constant tensors (the writer
//     de-duplicates them by SHA-256 into the constant segment);
//   - every other tensor gets its planned (memory_id, offset); symbolic sizes are written
//     at their upper bound with dynamism DYNAMIC_BOUND; activations are contiguous;
//   - a KernelCall's args are all schema arguments with defaults filled in (constants as
//     new EValues, int lists boxed with their elements emitted first), then the out
//     tensor(s), then the return slot (the out tensor, or a TensorList of several);
//     a None for a plain Tensor argument becomes the empty BYTE placeholder tensor;
//   - aten::sym_size.int and Python scalar ops (executorch_prim::*.Scalar) take their
//     result Int EValue as the last argument;
//   - delegate-call nodes (op "ember::delegate_call.<backend>") become DelegateCall
//     instructions (inputs then outputs) with the blob and compile specs from node
//     metadata; the named data a blob refers to joins the program's named_data
//     (delegate_metadata.h).
// Operators are de-duplicated per method by (name, overload), "" for "default".
#pragma once

#include <string>

#include "aot/emit/emit_program.h"
#include "aot/ir/graph.h"
#include "aot/backend/delegate_metadata.h"

namespace ember::aot {

struct EmitGraphOptions {
  std::string method_name = "forward";
};

Result<EmitProgram> emit_graph(const Graph& graph,
                                            const EmitGraphOptions& options = {});

// The executorch_prim op for a Python scalar node target ("_operator.mul" -> {"executorch_prim::mul",
// "Scalar"}); NotSupported naming the target otherwise.
Result<EmitOperator> prim_operator_for(const std::string& symbolic_target);

}  // namespace ember::aot
