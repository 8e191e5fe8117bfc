// FuseHardswishPass: folds core ATen's decomposition of hardswish back into one node, which a
// backend (XNNPACK's xnn_define_hardswish) or the portable kernel runs in one pass.
//
// Before: %add : f32[1, 16] = aten::add.Tensor(self=%x, other=%three)      # f32[] 3.0
//         %clamp : f32[1, 16] = aten::clamp.default(self=%add, min=0)
//         %clamp_1 : f32[1, 16] = aten::clamp.default(self=%clamp, min=None, max=6)
//         %mul : f32[1, 16] = aten::mul.Tensor(self=%x, other=%clamp_1)
//         %div : f32[1, 16] = aten::div.Tensor(self=%mul, other=%six)      # f32[] 6.0
// After:  %div : f32[1, 16] = aten::hardswish.default(self=%x)
// The clamps may be one clamp(min=0, max=6) or two in either order, the mul's operands in
// either order. The constants must be f32 0-dim (CastScalarConstantsPass runs first) and every
// intermediate value must have exactly one use and not be a graph output; anything else is
// left as is. The result may differ from the five ops by a rounding step (x / 6 vs x * (1/6)),
// well inside the fixtures' tolerance.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FuseHardswishPass final : public Pass {
 public:
  const char* name() const override { return "fuse_hardswish"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
