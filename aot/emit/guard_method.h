// The AoT side of input guards (runtime/executor/input_guards.h, docs/dynamic_shapes.md):
// torch.export constraints on a method's inputs that a .pte's DYNAMIC_BOUND sizes (upper
// bounds only) cannot carry, written as a constant method `__ember_guards__<method>`.
//
//   derive_input_guards(graph)  user input dims that are exactly a symbol:
//                               - the symbol's first occurrence with range min > 0
//                                 -> MinSize (input, dim, min)
//                               - a later occurrence of the same symbol
//                                 -> EqualSize (input, dim, first input, first dim)
//   guard_method(name, guards)  the constant method: Int outputs
//                               [1, count, kind, input, dim, a, b, ...]
//
// Inputs are numbered like the emitted method's inputs (user inputs in signature order).
//                             - a dim that is affine in one symbol (2*s0, s0 + 1, 2*s0 - 1:
//                               torch's derived Dims) -> DerivedSize against the symbol's
//                               first plain occurrence (or its minimum when it has none)
// Other derived sizes (s0 + s1, s0*s1) get no guard: kernels' own shape checks cover them.
// EmitStage appends the method after the user's methods (so method 0 stays `forward`
// for tools that run the first method); an empty guard list writes no method.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/emit_program.h"
#include "aot/ir/graph.h"

namespace ember::aot {

inline constexpr char kGuardMethodPrefix[] = "__ember_guards__";
inline constexpr int64_t kGuardTableVersion = 1;
// The second record of a kDerivedSize guard: 4, mul, add, min, 0.
inline constexpr int64_t kDerivedCoefficients = 4;
// The runtime reads at most this many records per method (a DerivedSize takes two).
inline constexpr size_t kMaxInputGuards = 32;

struct InputGuardRecord {
  // kDerivedSize: size(input, dim) == mul * S + add, S = size(a, b) (a = -1: S is not an
  // input dim, then only S >= min is known); written as two records:
  //   3, input, dim, a, b  followed by  4, mul, add, min, 0
  // kSymbolBound: value `input` (a method value index, not an input number) has dim `dim`
  // sized by the data-dependent symbol u<a>, planned at its bound b (diagnostics only: the
  // runtime names the symbol and the bound when that value's kernel fails).
  enum Kind : int64_t { kMinSize = 1, kEqualSize = 2, kDerivedSize = 3, kSymbolBound = 5 };
  int64_t kind = kMinSize;
  int64_t input = 0;
  int64_t dim = 0;
  int64_t a = 0;  // kMinSize: the minimum; kEqualSize: the reference input
  int64_t b = 0;  // kEqualSize: the reference input's dim; kMinSize: 0 (reserved)
  int64_t mul = 1, add = 0, min = 0;  // kDerivedSize only

  bool operator==(const InputGuardRecord& o) const {
    return kind == o.kind && input == o.input && dim == o.dim && a == o.a && b == o.b &&
           mul == o.mul && add == o.add && min == o.min;
  }
};

// The guards implied by `graph`'s user inputs and range_constraints. Errors
// (kInvalidProgram) quote an input size that does not parse; kNotSupported when there
// are more than kMaxInputGuards.
Result<std::vector<InputGuardRecord>> derive_input_guards(const Graph& graph);

// kSymbolBound records for `method` (emitted from `graph`, with its value_index): for each
// data-dependent symbol torch names u<N>, every tensor output of the first node that outputs
// a tensor with a dim that is exactly that symbol (where a bound is exceeded first), at that
// dim's planned bound. At most `room` records (diagnostics: extra symbols are left out).
std::vector<InputGuardRecord> derive_symbol_bounds(const Graph& graph, const EmitMethod& method,
                                                   size_t room);

// derive_input_guards + derive_symbol_bounds in the room the input guards leave.
Result<std::vector<InputGuardRecord>> derive_method_guards(const Graph& graph, const EmitMethod& method);

// "__ember_guards__" + method.
std::string guard_method_name(const std::string& method);

// The constant method holding `guards` for `method` (see the encoding above).
Result<EmitMethod> guard_method(const std::string& method, const std::vector<InputGuardRecord>& guards);

}  // namespace ember::aot
