// Conversion: the annotated float graph plus its observers' parameters -> QDQ graph, as
// PT2E's convert_pt2e writes it (fold_quantize=True, then DuplicateDQPass):
//   activation key (value as produced):  v -> quantize_per_tensor -> dequantize_per_tensor,
//                                        one dequantize per consumer (and graph output)
//   activation edge with its own group:  another quantize/dequantize pair on that edge only
//   weight edge:                         int8 constant (weights quantized ahead of time, per
//                                        channel along axis 0) -> dequantize_per_channel
// Biases stay float.
#pragma once

#include <vector>

#include "aot/ir/graph.h"
#include "aot/quantize/annotate.h"
#include "aot/quantize/observer.h"

namespace ember::aot {

struct GroupParams {
  AffineQParams act;         // Histogram groups
  std::vector<float> scales;  // PerChannelMinMax groups (zero points are 0)
};

// `params` has one entry per plan.groups. Returns the converted graph.
Result<Graph> convert_to_qdq(const Graph& graph, const QuantPlan& plan,
                             const std::vector<GroupParams>& params);

// Quantizes float32 `w` per channel along axis 0 like quantize_per_channel:
// clamp(round_half_even(w * (1 / s[c])) + 0, qmin, qmax).
std::vector<int8_t> quantize_weight_per_channel(const std::vector<float>& w,
                                                const std::vector<float>& scales,
                                                int64_t quant_min, int64_t quant_max);

}  // namespace ember::aot
