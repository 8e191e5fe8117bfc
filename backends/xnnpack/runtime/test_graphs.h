// Test-only helpers to write small XNNGraph blobs by hand with the FlatBuffers
// object API (values, nodes, constants, the XH00 header), an in-memory
// NamedDataMap, and heap tensors to run them through XnnpackBackend.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "backends/xnnpack/schema/xnnpack_graph_generated.h"
#include "runtime/core/evalue.h"
#include "runtime/core/named_data_map.h"

namespace ember::backends::xnnpack::testing {

using fb_xnnpack::XNNDatatype;
using fb_xnnpack::XNodeUnion;

constexpr uint32_t kInternal = 0xFFFFFFFFu;
constexpr uint32_t kIn = 1, kOut = 2;

// A graph under construction. Constant data is appended to `constants` (the
// blob's constant region) unless a named key is given.
struct GraphBuilder {
  fb_xnnpack::XNNGraphT graph;
  std::vector<uint8_t> constants;

  GraphBuilder();
  // Adds a tensor value and returns its id_out.
  uint32_t tensor(std::vector<uint32_t> dims, uint32_t flags = 0, uint32_t external_id = kInternal,
                  XNNDatatype type = XNNDatatype::xnn_datatype_fp32);
  // Adds a constant fp32 tensor stored in the blob (or under `named_key`).
  uint32_t constant(std::vector<uint32_t> dims, const std::vector<float>& values,
                    const std::string& named_key = "");
  // A per-tensor quantized activation.
  uint32_t quantized(std::vector<uint32_t> dims, XNNDatatype type, float scale, int32_t zero_point,
                     uint32_t flags = 0, uint32_t external_id = kInternal);
  // A per-channel quantized constant whose bytes live in the blob and whose
  // scales live in named data under `scale_key` (as the exporter writes them).
  uint32_t per_channel_constant(std::vector<uint32_t> dims, XNNDatatype type,
                                const std::vector<uint8_t>& bytes, const std::string& scale_key,
                                uint32_t num_scales);
  void node_2x1(XNodeUnion type, uint32_t a, uint32_t b, uint32_t out);
  void node_1x1(XNodeUnion type, uint32_t in, uint32_t out);
  void transpose(std::vector<uint32_t> perm, uint32_t in, uint32_t out);
  void reshape(std::vector<uint32_t> new_shape, uint32_t in, uint32_t out);
  void concat(uint32_t axis, std::vector<uint32_t> inputs, uint32_t out);
  void slice(std::vector<uint32_t> offsets, std::vector<uint32_t> sizes, uint32_t in, uint32_t out);
  void fully_connected(uint32_t in, uint32_t filter, uint32_t bias, uint32_t out);
  // Scaled-dot-product attention; `mask` may be kInternal (absent).
  void sdpa(uint32_t q, uint32_t k, uint32_t v, uint32_t scale, uint32_t mask, uint32_t out);
  // Square kernel, stride 1, `pad` on every side, groups 1, NHWC/OHWI.
  void conv2d(uint32_t kernel, uint32_t pad, uint32_t in_channels, uint32_t out_channels,
              uint32_t in, uint32_t filter, uint32_t bias, uint32_t out);
  // Fused output clamp on the last node added.
  void clamp_last(float min, float max);

  // The blob: XH00 header + FlatBuffer (identifier `id`) + constant region; or
  // the bare FlatBuffer when `header` is false.
  std::vector<uint8_t> blob(bool header = true, const char* id = "XN01") const;
};

class MapDataMap final : public runtime::NamedDataMap {
 public:
  std::map<std::string, std::vector<uint8_t>> entries;
  runtime::Result<runtime::FreeableBuffer> get_data(std::string_view key) const override;
  size_t num_keys() const override { return entries.size(); }
  runtime::Result<std::string_view> key_at(size_t i) const override;
};

// A float tensor over owned heap memory (with XNNPACK-style slack), DYNAMIC_BOUND.
struct HeapTensor {
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<float> data;
  runtime::Tensor tensor;
  runtime::EValue value;

  HeapTensor(std::vector<int32_t> sizes, std::vector<float> values = {},
             std::vector<uint8_t> dim_order = {});
  const float* f() const { return data.data(); }
};

// x (external 0, f32[2,3]) -> a = x + x -> t = transpose(a) -> cat(t, t) on axis 1 ->
// s = slice [1:3, 1:4] -> u = tanh(s) -> out (external 1) = u * u. (Named for the
// delegate-internal kernels these nodes once ran in; all XNNPACK nodes since XNNPACK 2024.)
GraphBuilder internal_chain_graph();

}  // namespace ember::backends::xnnpack::testing
