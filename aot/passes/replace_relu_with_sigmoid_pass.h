// ReplaceReluWithSigmoidPass: the export tutorial's example of a user pass over the edge
// graph, in C++. Every aten::relu.default becomes aten::sigmoid.default with the same
// input and output values (both are f32 -> f32 of the same shape, so nothing else moves).
//
// Before: %relu = aten::relu.default(self=%x)
// After:  %relu = aten::sigmoid.default(self=%x)
//
// Stateless; run it in the transform stage (RecipeOptions::user_passes) or by name with
// lower --pass replace_relu_with_sigmoid (pass_registry.h).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class ReplaceReluWithSigmoidPass final : public Pass {
 public:
  const char* name() const override { return "replace_relu_with_sigmoid"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
