// DistributeConvOverCatPass: a convolution of a channel concatenation becomes one convolution
// per concatenated piece (the weight split along its input channels) and a sum, so that the
// concatenation is never materialised. SqueezeNet's fire modules end in cat([e1x1, e3x3], 1)
// read only by the next squeeze convolution (directly, through a max pool or through the
// classifier's eval-mode clone); Debian's XNNPACK has no concatenate operator, so each cat
// split the delegate into stages joined by a copy (docs/decisions.md, "SqueezeNet's cat").
//
// Before: %cat : f32[1, 128, 15, 15] = aten::cat.default(tensors=[%a, %b], dim=1)
//         %p : f32[1, 128, 7, 7], %i = aten::max_pool2d_with_indices.default(self=%cat, ...)
//         %conv : f32[1, 32, 7, 7] = aten::convolution.default(input=%p, weight=%w, bias=%b0, ...)
// After:  %p_0 = max_pool2d_with_indices(%a, ...); %p_1 = max_pool2d_with_indices(%b, ...)
//         %conv_0 = convolution(%p_0, %w[:, :64], %b0); %conv_1 = convolution(%p_1, %w[:, 64:], None)
//         %conv : f32[1, 32, 7, 7] = aten::add.Tensor(self=%conv_0, other=%conv_1)
// Exact in real arithmetic (a convolution is linear in its input channels; max pooling and
// clone act per channel); in float the sum is split in two, a rounding step or so, far inside
// the fixtures' tolerance. Only when every value between the cat and the convolution has
// exactly one use and is not a graph output, the tensors are static 4-D f32, the cat is along
// dim 1, the convolution is 2-D, not transposed, groups == 1, with a constant f32 weight used
// nowhere else (and a constant or absent bias); anything else is left as is.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class DistributeConvOverCatPass final : public Pass {
 public:
  const char* name() const override { return "distribute_conv_over_cat"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
