// Test and benchmark helper (testonly): one linear layer as an XNNPACK payload written by
// XnnpackGraphBuilder, x [m, k] fp32 -> y [m, n] fp32. With a quantized weight the input goes
// through an fp32 -> qdint8 XNNConvert first (XNNPACK's dynamically quantized
// fully-connected); without one the weight is an fp32 constant. Shared by
// dynamic_quant_test and //benchmarks:xnnpack_dq_linear_benchmark.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "aot/ir/error.h"
#include "backends/xnnpack/aot/dynamic_quant.h"

namespace ember::backends::xnnpack {

// `n` deterministic values in [-1, 1) (a linear congruential sequence from `seed`).
std::vector<float> pseudo_random(size_t n, uint32_t seed);

// The bytes of `f` as stored (little-endian fp32).
std::vector<uint8_t> bytes_of(const std::vector<float>& f);

// The payload of y = x W^T + bias: `q` quantized weights [n, k], or, when `q` is null,
// `w_fp32` [n, k] as fp32. `bias` has n values.
aot::Result<std::vector<uint8_t>> dq_linear_blob(uint32_t m, uint32_t k, uint32_t n,
                                                 const QuantizedWeight* q,
                                                 const std::vector<float>& w_fp32,
                                                 const std::vector<float>& bias);

}  // namespace ember::backends::xnnpack
