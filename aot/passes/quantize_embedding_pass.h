// QuantizeEmbeddingPass: an embedding table to int8, one symmetric scale per row.
//
// Before: %x = aten::embedding(%W, %ids)              W: f32 [V, D] constant
// After:  %x = quantized_decomposed::embedding_byte(%Wq, %scales, None, -127, 127, %ids)
//         Wq: int8 [V, D] = clamp(round(W / s), -127, 127), scales: f32 [V], s = max|W[r]| / 127
//         (1 for an all-zero row)
// ExecuTorch's name and arguments for the int8 embedding (kernels/portable/ops/
// quantized_embedding.h), no calibration. A table nothing else reads is replaced in place; a
// tied one (also read transposed by the output projection) keeps its float copy for that
// reader and gains the int8 copy beside it. Only static float32 constants are quantized. Used
// by the weight-quantizing LLM recipes (xnnpack-8da8w, xnnpack-8da4w).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class QuantizeEmbeddingPass final : public Pass {
 public:
  const char* name() const override { return "quantize_embedding"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
