// MeanAsLinearPass: a mean over the last dim (kept) becomes a product with a constant row of 1/K.
//
// Before: %m : f32[B, S, 1] = aten::mean.dim(self=%x : f32[B, S, K], dim=[-1], keepdim=True)
// After:  %m = aten::linear.default(input=%x, weight=%w, bias=None)   (%w : f32[1, K] = 1/K)
// The XNNPACK delegate takes a mean only over H and W of a 4-D tensor (its payload has no general
// reduction); a fully-connected layer with one output channel computes the same average, so an
// RMSNorm / LayerNorm statistic stays inside the delegate instead of splitting it twice per
// decoder layer. The sum is taken as sum(x_k * (1/K)) instead of sum(x_k) / K: equal up to
// float rounding (relative ~1e-7). Float32 with a static last dim only; the constants of equal
// K are shared.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class MeanAsLinearPass final : public Pass {
 public:
  const char* name() const override { return "mean_as_linear"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
