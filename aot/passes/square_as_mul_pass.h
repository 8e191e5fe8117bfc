// SquareAsMulPass: x ** 2 becomes x * x.
//
// Before: %y = aten::pow.Tensor_Scalar(self=%x, exponent=2)      (or 2.0)
// After:  %y = aten::mul.Tensor(self=%x, other=%x)
// The same values (PyTorch computes a square as x * x), and a node XNNPACK takes: an RMSNorm's
// pow would otherwise split the delegate twice per decoder layer. Floating inputs only.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class SquareAsMulPass final : public Pass {
 public:
  const char* name() const override { return "square_as_mul"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
