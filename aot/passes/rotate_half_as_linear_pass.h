// RotateHalfAsLinearPass: rotary embedding's rotate_half becomes one product with a constant
// signed permutation, so XNNPACK takes it as a fully-connected layer (its slices of a
// dynamic-length activation stay outside the delegate and split every decoder layer).
//
// Before (x: f32[..., D], D even, the halves along the last dim):
//   %a = slice.Tensor(%x, dim=-1, start=0, end=D/2)
//   %b = slice.Tensor(%x, dim=-1, start=D/2, end=D or more)
//   %r = cat.default([neg(%b), %a], dim=-1)
// After:
//   %r = linear.default(%x, %R)      # R: f32[D, D] constant, r[j] = -x[j + D/2] (j < D/2),
//                                    #    r[j] = x[j - D/2] (j >= D/2): one 1 or -1 per row
// Exact in float (each output is one input times +-1 plus zeros). Other slices, other orders
// and slices read elsewhere than this cat (besides the neg) are left as they are.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class RotateHalfAsLinearPass final : public Pass {
 public:
  const char* name() const override { return "rotate_half_as_linear"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
