// Seed payloads for the XnnpackBackend fuzzer; see xnnpack_seeds.h.
#include "tests/fuzz/xnnpack_seeds.h"

#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_header.h"

namespace ember::testing {
namespace {

using backends::xnnpack::testing::GraphBuilder;
using backends::xnnpack::testing::kIn;
using backends::xnnpack::testing::kOut;
using backends::xnnpack::testing::MapDataMap;
using backends::xnnpack::testing::XNNDatatype;
using backends::xnnpack::testing::XNodeUnion;

template <typename T>
std::vector<uint8_t> bytes_of(const std::vector<T>& v) {
  const auto* p = reinterpret_cast<const uint8_t*>(v.data());
  return std::vector<uint8_t>(p, p + v.size() * sizeof(T));
}

GraphBuilder add_constant() {
  GraphBuilder g;
  const uint32_t x = g.tensor({2, 3}, kIn, 0);
  const uint32_t c = g.constant({3}, {10.f, 20.f, 30.f});
  g.node_2x1(XNodeUnion::XNNAdd, x, c, g.tensor({2, 3}, kOut, 1));
  return g;
}

// No constants: a legacy bare FlatBuffer (no XH00 header) has no constant region.
GraphBuilder add_self() {
  GraphBuilder g;
  const uint32_t x = g.tensor({4}, kIn, 0);
  g.node_2x1(XNodeUnion::XNNAdd, x, x, g.tensor({4}, kOut, 1));
  return g;
}

GraphBuilder fully_connected_named() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 3}, kIn, 0);
  const uint32_t w = g.constant({2, 3}, {1, 2, 3, 0, -1, 1}, "weight_key");
  const uint32_t b = g.constant({2}, {0.5f, -2.f}, "bias_key");
  g.fully_connected(x, w, b, g.tensor({1, 2}, kOut, 1));
  return g;
}

// NHWC conv 3x3 pad 1 (2 -> 3 channels) + clamp, global average pool, abs.
GraphBuilder conv_pool() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 4, 4, 2}, kIn, 0);
  std::vector<float> w(3 * 3 * 3 * 2);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * float(int(i % 7) - 3);
  const uint32_t wf = g.constant({3, 3, 3, 2}, w);
  const uint32_t bf = g.constant({3}, {0.1f, -0.2f, 0.3f});
  const uint32_t y = g.tensor({1, 4, 4, 3}), p = g.tensor({1, 1, 1, 3});
  g.conv2d(3, 1, 2, 3, x, wf, bf, y);
  g.clamp_last(0.f, 6.f);
  g.node_1x1(XNodeUnion::XNNGlobalAvgPooling2d, y, p);
  g.node_1x1(XNodeUnion::XNNAbs, p, g.tensor({1, 1, 1, 3}, kOut, 1));
  return g;
}

// A 3x3 pad-1 conv of 16 -> 32 channels at 8x8 (four F(4,3) tiles: a Winograd stage on
// AVX-512F CPUs, winograd_stage.h) between two adds, the input also read after it.
GraphBuilder winograd_conv() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 8, 8, 16}, kIn, 0), a = g.tensor({1, 8, 8, 16});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, a);
  std::vector<float> w(32 * 3 * 3 * 16), b(32);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.01f * float(int(i % 11) - 5);
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * float(int(i % 3) - 1);
  const uint32_t c = g.tensor({1, 8, 8, 32});
  g.conv2d(3, 1, 16, 32, a, g.constant({32, 3, 3, 16}, w), g.constant({32}, b), c);
  g.clamp_last(0.f, INFINITY);
  const uint32_t s = g.tensor({1, 8, 8, 32});
  g.node_2x1(XNodeUnion::XNNAdd, c, c, s);
  g.node_2x1(XNodeUnion::XNNAdd, a, a, g.tensor({1, 8, 8, 16}, kOut, 1));
  g.node_1x1(XNodeUnion::XNNAbs, s, g.tensor({1, 8, 8, 32}, kOut, 2));
  return g;
}

// A 3x3 stride-2 pad-1 convolution with two groups of 16 channels at 6x6 (a grouped16 stage on
// AVX-512F CPUs with one thread, grouped16_stage.h) between two adds.
GraphBuilder grouped16_conv() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 6, 6, 32}, kIn, 0), a = g.tensor({1, 6, 6, 32});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, a);
  std::vector<float> w(32 * 3 * 3 * 16), b(32);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.01f * float(int(i % 7) - 3);
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * float(int(i % 5) - 2);
  const uint32_t c = g.tensor({1, 3, 3, 32});
  g.conv2d(3, 1, 16, 16, a, g.constant({32, 3, 3, 16}, w), g.constant({32}, b), c);
  auto* conv = g.graph.xnodes.back()->xnode_union.AsXNNConv2d();
  conv->groups = 2;
  conv->subsampling_height = conv->subsampling_width = 2;
  g.clamp_last(0.f, INFINITY);
  g.node_2x1(XNodeUnion::XNNAdd, c, c, g.tensor({1, 3, 3, 32}, kOut, 1));
  return g;
}

// A 1x1 convolution of 16 -> 32 channels on a 3x3 plane (9 rows: a few-rows stage on AVX-512F
// CPUs with one thread, few_rows_stage.h) between two adds.
GraphBuilder few_rows_conv() {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 3, 3, 16}, kIn, 0), a = g.tensor({1, 3, 3, 16});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, a);
  std::vector<float> w(32 * 16), b(32);
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.02f * float(int(i % 9) - 4);
  for (size_t i = 0; i < b.size(); ++i) b[i] = 0.1f * float(int(i % 3) - 1);
  const uint32_t c = g.tensor({1, 3, 3, 32});
  g.conv2d(1, 0, 16, 32, a, g.constant({32, 1, 1, 16}, w), g.constant({32}, b), c);
  g.clamp_last(0.f, INFINITY);
  g.node_2x1(XNodeUnion::XNNAdd, c, c, g.tensor({1, 3, 3, 32}, kOut, 1));
  return g;
}

GraphBuilder batch_matmul() {
  GraphBuilder g;
  const uint32_t a = g.tensor({2, 1, 2}, kIn, 0), b = g.tensor({2, 2, 1}, kIn, 1);
  g.node_2x1(XNodeUnion::XNNBatchMatrixMultiply, a, b, g.tensor({2, 1, 1}, kOut, 2));
  return g;
}

// fp32 -> qint8 -> 1x1 conv with qcint8 weights / qcint32 bias (scales in named data) -> fp32.
GraphBuilder quantized_conv() {
  GraphBuilder g;
  const auto qs8 = XNNDatatype::xnn_datatype_qint8;
  const uint32_t x = g.tensor({1, 1, 1, 2}, kIn, 0);
  const uint32_t qx = g.quantized({1, 1, 1, 2}, qs8, 1.f, 0);
  const std::vector<uint8_t> w = {1, 2, 4, uint8_t(-4)};
  const uint32_t wq =
      g.per_channel_constant({2, 1, 1, 2}, XNNDatatype::xnn_datatype_qcint8, w, "scale_w", 2);
  const uint32_t bq = g.per_channel_constant({2}, XNNDatatype::xnn_datatype_qcint32,
                                             bytes_of(std::vector<int32_t>{2, 4}), "scale_b", 2);
  const uint32_t qy = g.quantized({1, 1, 1, 2}, qs8, 1.f, 0);
  g.node_1x1(XNodeUnion::XNNConvert, x, qx);
  g.conv2d(1, 0, 2, 2, qx, wq, bq, qy);
  g.node_1x1(XNodeUnion::XNNConvert, qy, g.tensor({1, 1, 1, 2}, kOut, 1));
  return g;
}

}  // namespace

std::vector<std::pair<std::string, std::vector<uint8_t>>> xnnpack_seed_blobs() {
  return {
      {"add_constant", add_constant().blob()},
      {"add_bare", add_self().blob(/*header=*/false)},
      {"fully_connected_named", fully_connected_named().blob()},
      {"conv_pool", conv_pool().blob()},
      {"internal_chain", backends::xnnpack::testing::internal_chain_graph().blob()},
      {"batch_matmul", batch_matmul().blob()},
      {"quantized_conv", quantized_conv().blob()},
      {"winograd_conv", winograd_conv().blob()},
      {"grouped16_conv", grouped16_conv().blob()},
      {"few_rows_conv", few_rows_conv().blob()},
  };
}

const runtime::NamedDataMap& xnnpack_seed_named_data() {
  static const MapDataMap* map = [] {
    auto* m = new MapDataMap();
    m->entries["weight_key"] = bytes_of(std::vector<float>{1, 2, 3, 0, -1, 1});
    m->entries["bias_key"] = bytes_of(std::vector<float>{0.5f, -2.f});
    m->entries["scale_w"] = bytes_of(std::vector<float>{0.5f, 0.25f});
    m->entries["scale_b"] = bytes_of(std::vector<float>{0.5f, 0.25f});
    return m;
  }();
  return *map;
}

std::vector<std::vector<uint8_t>> extract_xnnpack_blobs(const std::vector<uint8_t>& file,
                                                        size_t max_size) {
  std::vector<std::vector<uint8_t>> out;
  for (size_t at = 4; at + 4 <= file.size(); ++at) {
    if (std::memcmp(file.data() + at, "XH00", 4) != 0) continue;
    const uint8_t* begin = file.data() + at - 4;
    const size_t avail = file.size() - (at - 4);
    auto h = backends::xnnpack::parse_xnnpack_header(begin, avail);
    if (!h.ok()) continue;
    const uint64_t end = std::max<uint64_t>(uint64_t{h->flatbuffer_offset} + h->flatbuffer_size,
                                            h->constant_data_offset + h->constant_data_size);
    if (end > avail || end > max_size) continue;
    out.emplace_back(begin, begin + end);
  }
  return out;
}

}  // namespace ember::testing
