// FoldConstantPermutePass: permutes constant tensors ahead of time instead of at every run.
//
// Before: %wt : f32[3, 4] = aten::permute.default(self=%w, dims=[1, 0])   (%w : f32[4, 3] constant)
//         %y = aten::addmm.default(self=%b, mat1=%x, mat2=%wt)
// After:  %y = aten::addmm.default(self=%b, mat1=%x, mat2=%w)            (%w : f32[3, 4], bytes permuted)
// This is the weight transpose that linear decomposes into. The constant's bytes are rewritten
// in the permuted order and its spec takes the permute's output shape (contiguous); uses of the
// permute's output then read the constant directly. When other nodes also read the constant
// (a tied embedding / output matrix: embedding reads it as is, the output projection
// transposed), the permute's output becomes a constant of its own instead, so no run
// transposes it; several permutes of one constant with the same dims share one copy.
// Permutes whose output is a graph output stay.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FoldConstantPermutePass final : public Pass {
 public:
  const char* name() const override { return "fold_constant_permute"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
