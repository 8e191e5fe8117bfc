// QuantizeLinearPass: linear layers with constant float weights to the portable dynamically
// quantized linear (the portable-8da8w / portable-8da4w recipes; kernels/portable/util/qlinear.h).
//
// Before: %wt = aten::permute(%W, [1, 0]);  %y = aten::mm(%x, %wt)     W: f32 [N, K] constant
//         (or addmm(%b, %x, %wt) with beta = alpha = 1, or linear(%x, %W, %b?))
// After:  %y = ember_quantized::linear_8da8w(%x, %Wq, %scales, %b | None)
//           Wq int8 [N, K] = clamp(round(W / s), -127, 127), s [N] = max |W[j]| / 127
//         %y = ember_quantized::linear_8da4w(%x, %Wq, %scales, group_size, %b | None)
//           per block of `group_size` input channels of a row, llama.cpp q4_0's rounding:
//           d = -m / 8 with m the block's value of largest magnitude (1 if all zero),
//           v = clamp(round(W / d), -8, 7); Wq uint8 [N, K / 2] packed as qlinear.h says,
//           scales f32 [N, K / group_size]
// No calibration: activations are quantized per row at run time by the kernel. A weight read
// only by the rewritten nodes is replaced in place; one also read elsewhere (a tied embedding
// kept float) keeps its float copy for that reader. Layers whose K the 4-bit block does not
// divide, non-finite weights and dynamic shapes stay float. The permute goes when nothing else
// reads it; an N-D linear decomposed as view -> mm -> view becomes one quantized linear of the
// N-D input (linear_views.h).
#pragma once

#include <cstdint>

#include "aot/passes/pass.h"

namespace ember::aot {

class QuantizeLinearPass final : public Pass {
 public:
  // group_size 0: int8 per output channel (8da8w); 32, 64 or 128: 4-bit per block (8da4w).
  explicit QuantizeLinearPass(int64_t group_size) : group_size_(group_size) {}
  const char* name() const override { return "quantize_linear"; }
  Error run(Graph& graph) const override;

 private:
  int64_t group_size_;
};

}  // namespace ember::aot
