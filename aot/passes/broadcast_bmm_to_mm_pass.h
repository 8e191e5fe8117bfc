// BroadcastBmmToMmPass: a batch matmul whose second operand is one 2-D matrix expanded over
// the batch becomes one matrix multiply.
//
// Before: %wt : f32[32, 96] = aten::permute.default(self=%w, dims=[1, 0])
//         %e  : f32[8, 32, 96] = aten::expand.default(self=%wt, size=[8, 32, 96])
//         %v  : f32[8, 32, 96] = aten::view.default(self=%e, size=[8, 32, 96])     (optional)
//         %y  : f32[8, 2, 96] = aten::bmm.default(self=%a, mat2=%v)
// After:  %a2 : f32[16, 32] = aten::view.default(self=%a, size=[16, 32])
//         %m  : f32[16, 96] = aten::mm.default(self=%a2, mat2=%wt)
//         %y  : f32[8, 2, 96] = aten::view.default(self=%m, size=[8, 2, 96])
// This is how torch.export writes nn.MultiheadAttention's input projection (torch 2.6 and
// 2.14, both dialects). Left alone, every run copies the weight B times and multiplies B
// small matrices (in the XNNPACK delegate, in its own batch-matmul kernel); afterwards the
// permute of the constant weight folds ahead of time and the mm is one fully-connected
// operator. The expand (and a same-shape view of it) is removed when nothing else reads it.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class BroadcastBmmToMmPass final : public Pass {
 public:
  const char* name() const override { return "broadcast_bmm_to_mm"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
