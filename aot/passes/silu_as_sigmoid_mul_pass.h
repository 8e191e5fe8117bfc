// SiluAsSigmoidMulPass: silu(x) becomes x * sigmoid(x), two operators XNNPACK 2024 has (it has
// no SiLU node), so a SwiGLU MLP stays inside one delegate.
//
// Before:  %y = silu.default(%x)
// After:   %s = sigmoid.default(%x);  %y = mul.Tensor(%x, %s)
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class SiluAsSigmoidMulPass final : public Pass {
 public:
  const char* name() const override { return "silu_as_sigmoid_mul"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
