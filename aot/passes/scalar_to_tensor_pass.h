// ScalarToTensorPass (edge dialect): wraps Python numbers passed where the schema
// expects a Tensor into 0-dim constant tensors.
//
// Before: %y = aten::add.Tensor(self=%x, other=2.0)          # wrapped number
// After:  %y = aten::add.Tensor(self=%x, other=%_scalar_0)   # %_scalar_0 : f32[] const
// Floats become float32, ints int64 and bools bool, as torch's wrapped numbers do; the
// kernels' type promotion treats 0-dim tensors like scalars.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class ScalarToTensorPass final : public Pass {
 public:
  const char* name() const override { return "scalar_to_tensor"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
