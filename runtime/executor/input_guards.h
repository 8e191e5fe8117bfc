// Input guards: the export constraints a .pte's sizes cannot say. A DYNAMIC_BOUND
// tensor's sizes are per-dim upper bounds only; torch.export also knows each dim's
// minimum and which dims of different inputs are equal. Ember writes those next to a
// method `M` as a constant method `__ember_guards__M` (no inputs, no instructions, Int
// outputs), which upstream ExecuTorch simply never runs. Its outputs are
//
//   [version = 1, count, count records of 5 ints: kind, input, dim, a, b]
//
//   kind 1 (MinSize):   size(input, dim) >= a            (b reserved, written 0)
//   kind 2 (EqualSize): size(input, dim) == size(a, b)   (input a, dim b: the reference)
//   kind 3 (DerivedSize), always followed by a kind 4 record "4, mul, add, min, 0":
//                       size(input, dim) == mul * S + add, S = size(a, b); a = -1 when S is
//                       no input dim: then (size - add) is a multiple of mul and S >= min
//
//   kind 5 (SymbolBound): value `input` (a value index of the method, not an input number)
//                       has dim `dim` sized by the data-dependent symbol u<a>, planned at its
//                       bound b. Not checked: when the kernel writing that value fails (a
//                       size past the bound), Method::execute names the symbol and the bound.
//
// Program::load_method(M) reads the table when present (a bad one is an InvalidProgram /
// OutOfResources error naming it), Method::set_input checks MinSize, and DerivedSize once
// both inputs are set; Method::execute checks EqualSize and DerivedSize before the first
// instruction. A program without the method behaves
// as before (upper bounds only). See docs/dynamic_shapes.md.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::runtime {

// Guard methods are named kGuardMethodPrefix + the guarded method's name.
inline constexpr char kGuardMethodPrefix[] = "__ember_guards__";
inline constexpr int64_t kGuardTableVersion = 1;
inline constexpr size_t kGuardRecordInts = 5;
// At most this many records per method (more is OutOfResources at load).
inline constexpr size_t kMaxInputGuards = 32;

enum class InputGuardKind : uint8_t {
  MinSize = 1,
  EqualSize = 2,
  DerivedSize = 3,
  DerivedCoefficients = 4,  // the second record of a DerivedSize (kept, never checked)
  SymbolBound = 5,          // a data-dependent size's symbol and bound (error messages only)
};

// One validated record: indices are in range for the method's inputs and their ranks.
struct InputGuard {
  InputGuardKind kind = InputGuardKind::MinSize;
  uint32_t input = 0;
  uint32_t dim = 0;
  int32_t a = 0;  // MinSize: the minimum; EqualSize / DerivedSize: the reference input (-1: none);
                  // SymbolBound: N of the symbol u<N> (`input` is then a value index)
  int32_t b = 0;  // EqualSize / DerivedSize: the reference input's dim; SymbolBound: the bound
  int32_t mul = 1, add = 0, min = 0;  // DerivedSize
};

// True for "__ember_guards__<anything>": metadata, not a method users run. Tools that
// list methods (Module::method_names, executor_runner) skip these.
bool is_guard_method_name(const char* name);

}  // namespace ember::runtime
