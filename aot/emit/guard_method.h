// The AoT side of input guards (runtime/executor/input_guards.h, docs/dynamic_shapes.md):
// torch.export constraints on a method's inputs that a .pte's DYNAMIC_BOUND sizes (upper
// bounds only) cannot carry, written as a constant method `__ember_guards__<method>`. The
// table's format (prefix, version, record layout, InputGuardKind) is the runtime's, stated
// once in runtime/executor/guard_table_format.h.
//
//   derive_input_guards(graph)  user input dims that are exactly a symbol:
//                               - the symbol's first occurrence with range min > 0
//                                 -> MinSize (input, dim, min)
//                               - a later occurrence of the same symbol
//                                 -> EqualSize (input, dim, first input, first dim)
//                               - a dim that is affine in one symbol (2*s0, s0 + 1, 2*s0 - 1:
//                                 torch's derived Dims) -> DerivedSize against the symbol's
//                                 first plain occurrence (or its minimum when it has none)
//   guard_method(name, guards)  the constant method holding the table
//
// Inputs are numbered like the emitted method's inputs (user inputs in signature order).
// Other derived sizes (s0 + s1, s0*s1) get no guard: kernels' own shape checks cover them.
// EmitStage appends the method after the user's methods (so method 0 stays `forward`
// for tools that run the first method); an empty guard list writes no method.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/graph.h"
#include "runtime/executor/guard_table_format.h"

namespace ember::aot {

using runtime::InputGuardKind;
using runtime::kGuardMethodPrefix;
using runtime::kMaxInputGuards;

// One guard as the writer holds it; a DerivedSize is written as two records (its mul, add
// and min go into the DerivedCoefficients record that follows it).
struct InputGuardRecord {
  InputGuardKind kind = InputGuardKind::MinSize;  // never DerivedCoefficients
  int64_t input = 0;
  int64_t dim = 0;
  int64_t a = 0;  // MinSize: the minimum; EqualSize: the reference input
  int64_t b = 0;  // EqualSize: the reference input's dim; MinSize: 0 (reserved)
  int64_t mul = 1, add = 0, min = 0;  // DerivedSize only

  bool operator==(const InputGuardRecord& o) const {
    return kind == o.kind && input == o.input && dim == o.dim && a == o.a && b == o.b &&
           mul == o.mul && add == o.add && min == o.min;
  }
};

// The guards implied by `graph`'s user inputs and range_constraints. Errors
// (Error::InvalidProgram) quote an input size that does not parse; Error::NotSupported when
// there are more than kMaxInputGuards.
Result<std::vector<InputGuardRecord>> derive_input_guards(const Graph& graph);

// SymbolBound records for `method` (emitted from `graph`, with its value_index): for each
// data-dependent symbol torch names u<N>, every tensor output of the first node that outputs
// a tensor with a dim that is exactly that symbol (where a bound is exceeded first), at that
// dim's planned bound. At most `room` records (diagnostics: extra symbols are left out).
std::vector<InputGuardRecord> derive_symbol_bounds(const Graph& graph, const EmitMethod& method,
                                                   size_t room);

// derive_input_guards + derive_symbol_bounds in the room the input guards leave.
Result<std::vector<InputGuardRecord>> derive_method_guards(const Graph& graph, const EmitMethod& method);

// "__ember_guards__" + method.
std::string guard_method_name(const std::string& method);

// The constant method holding `guards` for `method` (guard_table_format.h).
Result<EmitMethod> guard_method(const std::string& method, const std::vector<InputGuardRecord>& guards);

}  // namespace ember::aot
