// DecomposeTrainingOpsPass: rewrites training-IR ops into core ATen (decompositions.h).
//
// Before: %linear = aten::linear.default(input=%x, weight=%w, bias=%b)
// After:  %permute = aten::permute.default(self=%w, dims=[1, 0])
//         %linear  = aten::addmm.default(self=%b, mat1=%x, mat2=%permute)
// The replacement nodes keep the original node's name, stack trace and output values, so
// later nodes need no rewiring. An alias rule (dropout in eval mode, contiguous on a
// contiguous tensor) rewires the uses of the output to the input instead; when that would
// make a graph output be a graph input, a clone is emitted. Ops without a rule are left
// alone; OpSetCheckPass reports whatever is still outside core ATen.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class DecomposeTrainingOpsPass final : public Pass {
 public:
  const char* name() const override { return "decompose_training_ops"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
