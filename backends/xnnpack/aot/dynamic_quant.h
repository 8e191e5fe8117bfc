// Weights for XNNPACK's dynamically quantized fully connected (activations stay fp32 and are
// quantized per row to qdint8 at run time): symmetric int8 per output channel (qcint8), 4-bit
// per output channel (qcint4) or 4-bit per block of input channels (qbint4, block 32/64/128).
// The 4-bit bytes are what the runtime reads (define_value.cc): value + 8, two per byte, the
// even input channel in the low nibble, each row padded to a whole byte. Block scales are
// rounded to bf16 first (XNNPACK keeps them as bf16), so `dequantized` is exactly what runs.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"

namespace ember::backends::xnnpack {

enum class WeightScheme { Int8PerChannel, Int4PerChannel, Int4Blockwise };

struct QuantizedWeight {
  fb_xnnpack::XNNDatatype datatype = fb_xnnpack::XNNDatatype::xnn_datatype_qcint8;
  std::vector<uint8_t> bytes;      // the constant's bytes
  std::vector<float> scales;       // [n] or [n][k / block_size]
  uint32_t block_size = 0;         // Int4Blockwise only
  std::vector<float> dequantized;  // [n][k]: scale * q, the weights XNNPACK multiplies by
};

// w is [n][k] row-major (a linear layer's weight: n outputs, k inputs). InvalidArgument for a
// block size that is not 32, 64 or 128 or does not divide k, and for non-finite weights.
aot::Result<QuantizedWeight> quantize_weight(const float* w, uint32_t n, uint32_t k,
                                             WeightScheme scheme, uint32_t block_size = 0);

// "int8", "int4" (per channel), "int4-b32", "int4-b64", "int4-b128"; false for anything else.
bool parse_weight_scheme(const std::string& name, WeightScheme* scheme, uint32_t* block_size);

}  // namespace ember::backends::xnnpack
