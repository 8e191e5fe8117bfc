// QuantizedOpCheckPass (edge dialect): the quantize/dequantize nodes of a PT2E program are
// ones Ember lowers, with consistent parameters.
//
// Before: any graph.  After: unchanged, or an error listing EVERY offending
// quantized_decomposed node with its name, op and the user's source line: ops Ember does not
// lower (quantize_per_token, choose_qparams_per_token_asymmetric, ...; NotSupported) and
// parameters that contradict their tensors (per-channel scales or zero points whose length
// differs from the axis size, an axis out of range, quant_min/quant_max outside the storage
// dtype, a dequantize input whose dtype is not `dtype`, a non-positive scale;
// InvalidProgram). The rules are read_qdq()'s (aot/quantize/qdq.h). Graphs without
// quantized nodes pass untouched.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class QuantizedOpCheckPass final : public Pass {
 public:
  const char* name() const override { return "quantized_op_check"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
