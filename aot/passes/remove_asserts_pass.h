// RemoveAssertsPass: drops runtime assertion nodes that carry no data.
//
// Before: %x ... ; aten::_assert_tensor_metadata.default(a=%x, dtype=f32); aten::_assert_scalar(...)
// After:  the same graph without the assertion nodes (the values they checked were fixed
//         at export time; symbolic inputs they used become dead and DeadCodePass removes them).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class RemoveAssertsPass final : public Pass {
 public:
  const char* name() const override { return "remove_asserts"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
