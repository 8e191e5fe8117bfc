// dq_linear_blob and its value helpers (see dq_linear_blob.h).
#include "backends/xnnpack/aot/dq_linear_blob.h"

#include <cmath>
#include <cstring>

#include "backends/xnnpack/aot/xnnpack_graph_builder.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;

std::vector<float> pseudo_random(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  uint32_t x = seed;
  for (float& f : v) {
    x = x * 1664525u + 1013904223u;
    f = float(x >> 8) / float(1u << 23) - 1.f;
  }
  return v;
}

std::vector<uint8_t> bytes_of(const std::vector<float>& f) {
  std::vector<uint8_t> b(f.size() * 4);
  if (!b.empty()) std::memcpy(b.data(), f.data(), b.size());
  return b;
}

aot::Result<std::vector<uint8_t>> dq_linear_blob(uint32_t m, uint32_t k, uint32_t n,
                                                 const QuantizedWeight* q,
                                                 const std::vector<float>& w_fp32,
                                                 const std::vector<float>& bias) {
  XnnpackGraphBuilder g;
  uint32_t x = g.add_value({m, k});
  g.set_external(x, 0, kFlagExternalInput);
  uint32_t w;
  if (q == nullptr) {
    w = g.add_constant({n, k}, bytes_of(w_fp32));
  } else {
    const ValueType wt = q->block_size == 0
                             ? ValueType::per_channel(q->datatype, q->scales, 0)
                             : ValueType::per_channel_group(q->datatype, q->scales, 0,
                                                            int32_t(q->block_size));
    w = g.add_constant({n, k}, q->bytes, wt);
    const uint32_t xq = g.add_value({m, k}, ValueType::per_token_dynamic(1));
    g.unary(fb::XNodeUnion::XNNConvert, x, xq);
    x = xq;
  }
  const uint32_t b = g.add_constant({n}, bytes_of(bias));
  const uint32_t y = g.add_value({m, n});
  g.set_external(y, 1, kFlagExternalOutput);
  auto* fc = new fb::XNNFullyConnectedT();
  fc->input1_id = x;
  fc->filter_id = w;
  fc->bias_id = b;
  fc->output_id = y;
  g.set_output_min_max(g.add_node(fb::XNodeUnion::XNNFullyConnected, fc), -INFINITY, INFINITY);
  EMBER_ASSIGN_OR_RETURN(auto blob, g.serialize(ConstantPlacement::Inline));
  return std::move(blob.bytes);
}

}  // namespace ember::backends::xnnpack
