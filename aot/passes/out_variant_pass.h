// OutVariantPass (executorch dialect): functional ops become their out variants.
//
// Before: %add = aten::add.Tensor(self=%x, other=%y)
// After:  %add = aten::add.out(self=%x, other=%y, alpha=1)      [metadata ember.out_variant]
// The node's inputs become the complete functional argument list in schema order (omitted
// defaults filled in), minus the TensorOptions group (dtype/layout/device/pin_memory) for
// factory-style ops that take layout/device, since out variants get those from `out`. The
// out arguments are NOT listed as inputs: they are the node's outputs, and the emitter
// appends them (then the return slot) to the KernelCall, as pte-format.md §4.2 describes.
// View ops map to the out form of their _copy op (view -> view_copy.out).
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

// Metadata key set on converted nodes.
inline constexpr const char* kOutVariantKey = "ember.out_variant";

class OutVariantPass final : public Pass {
 public:
  const char* name() const override { return "out_variant"; }
  Error run(Graph& graph) const override;
};

// Whether the node was converted by OutVariantPass.
inline bool is_out_variant_node(const Node& node) {
  return node.metadata.count(kOutVariantKey) != 0;
}

}  // namespace ember::aot
