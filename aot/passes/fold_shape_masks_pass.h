// FoldShapeMasksPass: computes at lowering time the boolean masks that depend only on shapes.
//
// Before: %a = aten::arange.start_step(0, 8)            (int64 [8])
//         %q = aten::unsqueeze.default(%a, 1)            (int64 [8, 1])
//         %causal = aten::le.Tensor(%a, %q)             (bool [8, 8])
//         %m = aten::bitwise_and.Tensor(%causal, %pad)  (%pad: from the attention_mask input)
// After:  %causal : bool[8, 8] constant (bytes computed here)
//         %m = aten::bitwise_and.Tensor(%causal, %pad)
// Hugging Face models build attention masks from arange/le/bitwise_and/expand: dozens of small
// int64 and bool kernels per run that XNNPACK cannot take (it has no bool datatype), which
// split its partitions. A node is folded when it is in the small evaluable set below, every
// tensor it reads is a static constant (or folded), its output is static with at most
// kMaxFoldedElements elements and not a graph output, and it yields a bool tensor or feeds one
// that is folded (so the int64 index arithmetic of other ops, e.g. torch 2.6's upsample, is left
// as is). Folded nodes are removed; their outputs become constants written into the .pte.
// Evaluable: arange.start_step, full, scalar_tensor, add/sub/mul (Tensor, Scalar), the
// comparisons (eq/ne/lt/le/gt/ge), bitwise/logical and/or/xor/not, where.self, expand,
// unsqueeze/squeeze/view/reshape/clone/alias/_to_copy, for bool, uint8, int32, int64, float32
// and float64 data (integers exact up to 2^53).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class FoldShapeMasksPass final : public Pass {
 public:
  static constexpr int64_t kMaxFoldedElements = 1 << 16;
  const char* name() const override { return "fold_shape_masks"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
