// The input-guard table's format, the one statement of it that both halves include: the
// AoT writer (aot/emit/guard_method.h) and the runtime reader (input_guards.h), the way
// backends/demo/runtime/bytecode_format.h is shared by the demo backend's two halves.
//
// Next to a method `M`, a constant method kGuardMethodPrefix + M (no inputs, no
// instructions, Int outputs) holds
//
//   [kGuardTableVersion, count, count records of kGuardRecordInts ints: kind, input, dim, a, b]
//
//   MinSize (1):     size(input, dim) >= a            (b reserved, written 0)
//   EqualSize (2):   size(input, dim) == size(a, b)   (input a, dim b: the reference)
//   DerivedSize (3), always followed by a DerivedCoefficients (4) record "4, mul, add, min, 0":
//                    size(input, dim) == mul * S + add, S = size(a, b); a = -1 when S is no
//                    input dim: then (size - add) is a multiple of mul and S >= min
//   SymbolBound (5): value `input` (a value index of the method, not an input number) has
//                    dim `dim` sized by the data-dependent symbol u<a>, planned at its bound
//                    b (error messages only)
//
// At most kMaxInputGuards records per method (a DerivedSize takes two). Header only, no
// dependencies: constants, the kind enum and the name test.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::runtime {

// Guard methods are named kGuardMethodPrefix + the guarded method's name.
inline constexpr char kGuardMethodPrefix[] = "__ember_guards__";
inline constexpr size_t kGuardMethodPrefixLength = sizeof(kGuardMethodPrefix) - 1;
inline constexpr int64_t kGuardTableVersion = 1;
inline constexpr size_t kGuardRecordInts = 5;
// At most this many records per method (more is NotSupported when lowering, OutOfResources
// at load).
inline constexpr size_t kMaxInputGuards = 32;

enum class InputGuardKind : uint8_t {
  MinSize = 1,
  EqualSize = 2,
  DerivedSize = 3,
  DerivedCoefficients = 4,  // the second record of a DerivedSize (kept, never checked)
  SymbolBound = 5,          // a data-dependent size's symbol and bound (error messages only)
};

// True for "__ember_guards__<anything>": metadata, not a method users run. Tools that
// list methods (Module::method_names, executor_runner) skip these.
inline bool is_guard_method_name(const char* name) {
  if (name == nullptr) return false;
  for (size_t i = 0; i < kGuardMethodPrefixLength; ++i) {
    if (name[i] != kGuardMethodPrefix[i]) return false;  // also stops at name's end
  }
  return true;
}

}  // namespace ember::runtime
