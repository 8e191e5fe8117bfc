// TiedLinearPass: a product with the transpose of a constant that other nodes also read (a
// tied embedding / output matrix) becomes a linear that reads the constant as stored.
//
// Before: %wt : f32[K, N] = aten::permute.default(self=%w, dims=[1, 0])   (%w : f32[N, K] constant,
//         %e = aten::embedding.default(weight=%w, ...)                      also read elsewhere)
//         %y = aten::mm.default(self=%x, mat2=%wt)      (or addmm(self=%b [N], mat1=%x, mat2=%wt))
// After:  %y = aten::linear.default(input=%x, weight=%w, bias=None | %b)
// So the matrix is stored once (FoldConstantPermutePass would otherwise add a transposed copy,
// decision 166) and never transposed at run time: the portable linear.out and XNNPACK's
// fully-connected both read [N, K] weights. A constant read only through the permute is left
// to FoldConstantPermutePass (one copy either way). addmm is rewritten only with beta = alpha = 1
// and a 1-D bias of N elements. The permute goes when nothing else reads it. An N-D linear
// decomposed as view -> mm -> view becomes one linear of the N-D input (linear_views.h).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class TiedLinearPass final : public Pass {
 public:
  const char* name() const override { return "tied_linear"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
