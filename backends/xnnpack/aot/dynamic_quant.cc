// Symmetric weight quantization for the dynamically quantized fully connected; see
// dynamic_quant.h.
#include "backends/xnnpack/aot/dynamic_quant.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;

namespace {

// Rounds a positive finite float to the nearest bf16 (ties to even), as a float.
float round_to_bf16(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  u += 0x7FFFu + ((u >> 16) & 1u);
  u &= 0xFFFF0000u;
  float r;
  std::memcpy(&r, &u, sizeof(r));
  return r;
}

// The scale mapping max |w| of a group to qmax (1 for an all-zero group, which then stays 0).
float symmetric_scale(const float* w, size_t count, size_t stride, int qmax) {
  float m = 0.f;
  for (size_t i = 0; i < count; ++i) m = std::max(m, std::fabs(w[i * stride]));
  return m > 0.f ? m / float(qmax) : 1.f;
}

int quantize_one(float w, float scale, int qmin, int qmax) {
  const long q = std::lround(double(w) / double(scale));
  return int(std::min<long>(qmax, std::max<long>(qmin, q)));
}

}  // namespace

aot::Result<QuantizedWeight> quantize_weight(const float* w, uint32_t n, uint32_t k,
                                             WeightScheme scheme, uint32_t block_size) {
  for (size_t i = 0; i < size_t(n) * k; ++i) {
    if (!std::isfinite(w[i])) {
      return aot::invalid_argument("weight element " + std::to_string(i) +
                                   " is not finite; it cannot be quantized");
    }
  }
  QuantizedWeight q;
  const bool int4 = scheme != WeightScheme::Int8PerChannel;
  const int qmin = int4 ? -8 : -127, qmax = int4 ? 7 : 127;
  uint32_t block = k;
  if (scheme == WeightScheme::Int4Blockwise) {
    if ((block_size != 32 && block_size != 64 && block_size != 128) || k % block_size != 0) {
      return aot::invalid_argument(
          "4-bit block size " + std::to_string(block_size) + " for " + std::to_string(k) +
          " input channels: it must be 32, 64 or 128 and divide the input channels");
    }
    block = block_size;
    q.block_size = block_size;
  }
  q.datatype = scheme == WeightScheme::Int8PerChannel   ? fb::XNNDatatype::xnn_datatype_qcint8
               : scheme == WeightScheme::Int4PerChannel ? fb::XNNDatatype::xnn_datatype_qcint4
                                                        : fb::XNNDatatype::xnn_datatype_qbint4;
  const uint32_t blocks = k / block;
  const size_t row_bytes = int4 ? (size_t(k) + 1) / 2 : k;
  q.bytes.assign(size_t(n) * row_bytes, 0);
  q.dequantized.assign(size_t(n) * k, 0.f);
  for (uint32_t o = 0; o < n; ++o) {
    for (uint32_t b = 0; b < blocks; ++b) {
      const float* src = w + size_t(o) * k + size_t(b) * block;
      float scale = symmetric_scale(src, block, 1, qmax);
      if (scheme == WeightScheme::Int4Blockwise) scale = round_to_bf16(scale);
      q.scales.push_back(scale);
      for (uint32_t i = 0; i < block; ++i) {
        const uint32_t col = b * block + i;
        const int v = quantize_one(src[i], scale, qmin, qmax);
        q.dequantized[size_t(o) * k + col] = float(v) * scale;
        uint8_t* row = q.bytes.data() + size_t(o) * row_bytes;
        if (!int4) {
          row[col] = uint8_t(int8_t(v));
        } else {
          const uint8_t nibble = uint8_t(v + 8);
          row[col / 2] |= (col % 2 == 0) ? nibble : uint8_t(nibble << 4);
        }
      }
    }
  }
  return q;
}

bool parse_weight_scheme(const std::string& name, WeightScheme* scheme, uint32_t* block_size) {
  *block_size = 0;
  if (name == "int8") {
    *scheme = WeightScheme::Int8PerChannel;
  } else if (name == "int4") {
    *scheme = WeightScheme::Int4PerChannel;
  } else if (name == "int4-b32" || name == "int4-b64" || name == "int4-b128") {
    *scheme = WeightScheme::Int4Blockwise;
    *block_size = uint32_t(std::stoul(name.substr(6)));
  } else {
    return false;
  }
  return true;
}

}  // namespace ember::backends::xnnpack
