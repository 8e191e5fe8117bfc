// Input guards: the export constraints a .pte's sizes cannot say. A DYNAMIC_BOUND
// tensor's sizes are per-dim upper bounds only; torch.export also knows each dim's
// minimum and which dims of different inputs are equal. Ember writes those next to a
// method `M` as a constant method `__ember_guards__M`, which upstream ExecuTorch simply
// never runs. The table's format (prefix, version, record layout, InputGuardKind) is stated
// once, in guard_table_format.h, which the AoT writer (aot/emit/guard_method.h) includes too.
//
// Program::load_method(M) reads the table when present (a bad one is an InvalidProgram /
// OutOfResources error naming it), Method::set_input checks MinSize, and DerivedSize once
// both inputs are set; Method::execute checks EqualSize and DerivedSize before the first
// instruction. SymbolBound is not checked: when the kernel writing that value fails (a size
// past the bound), Method::execute names the symbol and the bound. A program without the
// method behaves as before (upper bounds only). See docs/dynamic_shapes.md.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/executor/guard_table_format.h"

namespace ember::runtime {

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

}  // namespace ember::runtime
