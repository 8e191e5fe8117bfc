// CastScalarConstantsPass: gives the 0-dim constant operands of float arithmetic the float
// dtype, so that backends which only take f32 operands (XNNPACK) see one dtype.
//
// Before: %y : f32[1, 16] = aten::add.Tensor(self=%x, other=%_scalar)   # %_scalar : i64[] = 3
// After:  %y : f32[1, 16] = aten::add.Tensor(self=%x, other=%_scalar)   # %_scalar : f32[] = 3.0
// Hardswish and hardsigmoid decompose into `x + 3`, `clamp(0, 6)` and `/ 6` with int64
// wrapped numbers (ScalarToTensorPass makes them 0-dim i64 constants). Torch's type promotion
// already computes such an op in the float output's dtype and converts the 0-dim operand to
// it first, so converting the constant ahead of time gives the same bits. Applies to
// add/sub/mul/div.Tensor and maximum/minimum whose output and other operand are f32 and whose
// 0-dim constant operand is an integer type or f64, when every use of that constant is such an
// op (a constant shared with any other use is left as is). Runs in the xnnpack recipe's
// transform stage (docs/decisions.md).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class CastScalarConstantsPass final : public Pass {
 public:
  const char* name() const override { return "cast_scalar_constants"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
