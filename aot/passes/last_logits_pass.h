// LastLogitsPass (lower --llm_last_logits): a decoder's logits output computes the last position
// only, as llama.cpp and ExecuTorch's export_llama (without generate_full_logits) do. The
// hidden state is sliced to its last position BEFORE the output head, so the head's linear runs
// on one row and the logits are [B, 1, vocab] whatever the (symbolic) sequence length T.
//
// Before: %x2 = aten::view.default(self=%x, size=[-1, K])           %x : f32[B, T, K]
//         %y2 = aten::mm.default(self=%x2, mat2=%wt)                 (or addmm(%b, %x2, %wt))
//         %y  = aten::view.default(self=%y2, size=[B, -1, V])        user output f32[B, T, V]
// After:  %xl = aten::slice.Tensor(self=%x, dim=1, start=-1, end=INT64_MAX, step=1)  f32[B, 1, K]
//         %x2 = aten::view.default(self=%xl, size=[B, K])
//         %y2 = aten::mm.default(self=%x2, mat2=%wt)                 f32[B, V]
//         %y  = aten::view.default(self=%y2, size=[B, 1, V])         user output f32[B, 1, V]
// (an aten::linear.default head of %x is handled the same way: it reads %xl.) It runs first in
// the transform stage, so TiedLinearPass / QuantizeLinearPass still see the view -> mm -> view
// head and make one linear of %xl (linear_views.h). Every rank-3 user output made by such a head
// is rewritten (one with a static T of 1 is already one position and stays); a graph with none
// is an InvalidArgument naming the outputs, since the user asked for a decoder's logits. The
// batch dim must be static.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class LastLogitsPass final : public Pass {
 public:
  const char* name() const override { return "last_logits"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
