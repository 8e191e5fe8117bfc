// RemoveIdentityCopyPass: a _to_copy to the dtype its input already has (Hugging Face's
// RMSNorm writes `x.to(torch.float32)` on float32 activations) is the input itself: its
// readers read the input. On XNNPACK programs such a copy is an operator the delegate lacks
// and split every decoder layer four times.
//
// Before:  %y : f32[..] = _to_copy.default(%x : f32[..], dtype=f32);  %z = f(%y)
// After:   %z = f(%x)
// Kept: a copy to another dtype, with a memory format other than preserve / contiguous, or
// whose result is a graph output (the output must stay its own tensor).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class RemoveIdentityCopyPass final : public Pass {
 public:
  const char* name() const override { return "remove_identity_copy"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
