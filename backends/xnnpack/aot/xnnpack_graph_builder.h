// XnnpackGraphBuilder: an XNNGraph under construction (values, constants, nodes) and its
// serialization into an XnnpackBackend blob (pte-format.md section 6): a 32-byte XH00
// header, the XNNGraph FlatBuffer (identifier XN01, padded to 16) and the constant region.
//
// Values are numbered in creation order (their id_out). A value is fp32 unless its
// ValueType says otherwise: qint8 per tensor (scale, zero point) for quantized activations,
// qcint8 / qcint32 per channel (scales along channel_dim) or qint8 / qint32 per tensor for
// quantized filters and biases; those are written as XNNQuantizedTensorValue. Constants are
// bytes, C-contiguous in the value's dims; constant_data[0] is the reserved empty entry. Two
// placements of constant bytes:
//   kInline     -- bytes in the blob's constant region, ConstantDataOffset{offset, size}
//                  (each constant 16-byte aligned; what the pipeline uses today, since
//                  the Partitioner contract returns one byte string).
//   kNamedData  -- ConstantDataOffset{UINT64_MAX, size, named_key = sha256_hex(bytes)}, the
//                  bytes returned in Blob::named_data for the PTE's named_data (alignment
//                  16), as upstream's exporter writes them.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/error.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"

namespace ember::backends::xnnpack {

constexpr uint32_t kXnnInvalidId = 0xFFFFFFFFu;
constexpr uint32_t kFlagExternalInput = 0x1;
constexpr uint32_t kFlagExternalOutput = 0x2;

enum class ConstantPlacement { Inline, NamedData };

// The datatype and quantization of a value (default: plain fp32).
struct ValueType {
  fb_xnnpack::XNNDatatype datatype = fb_xnnpack::XNNDatatype::xnn_datatype_fp32;
  enum class Quant : uint8_t {
    None,
    PerTensor,
    PerChannel,
    PerChannelGroup,  // blockwise (qbint4): scales [channels][blocks]
    PerTokenDynamic,  // qdint8 activations quantized per row at run time
  } quant = Quant::None;
  float scale = 0;             // PerTensor
  int32_t zero_point = 0;      // PerTensor
  std::vector<float> scales;   // PerChannel, PerChannelGroup
  int32_t channel_dim = 0;     // PerChannel, PerChannelGroup
  int32_t group_size = 0;      // PerChannelGroup
  int32_t num_nonbatch_dims = 0;  // PerTokenDynamic

  static ValueType per_tensor(fb_xnnpack::XNNDatatype t, float scale, int32_t zero_point);
  static ValueType per_channel(fb_xnnpack::XNNDatatype t, std::vector<float> scales,
                               int32_t channel_dim);
  static ValueType per_channel_group(fb_xnnpack::XNNDatatype t, std::vector<float> scales,
                                     int32_t channel_dim, int32_t group_size);
  static ValueType per_token_dynamic(int32_t num_nonbatch_dims);
  bool is_fp32() const { return datatype == fb_xnnpack::XNNDatatype::xnn_datatype_fp32; }
};

struct XnnpackBlob {
  std::vector<uint8_t> bytes;
  std::vector<std::pair<std::string, std::vector<uint8_t>>> named_data;  // kNamedData only
};

class XnnpackGraphBuilder {
 public:
  // An activation value (internal until marked external); fp32 unless `type` says otherwise.
  uint32_t add_value(std::vector<uint32_t> dims, ValueType type = {});
  // A constant value holding `bytes` (numel(dims) elements of the type's datatype).
  uint32_t add_constant(std::vector<uint32_t> dims, std::vector<uint8_t> bytes,
                        ValueType type = {});
  // Marks value `id` as external input/output number `external_id`.
  void set_external(uint32_t id, uint32_t external_id, uint32_t flag);
  uint32_t num_values() const { return static_cast<uint32_t>(values_.size()); }
  const std::vector<uint32_t>& dims(uint32_t id) const { return values_[id].dims; }
  const ValueType& type(uint32_t id) const { return values_[id].type; }
  bool is_constant(uint32_t id) const { return values_[id].constant >= 0; }
  bool is_external(uint32_t id) const { return values_[id].flags != 0; }
  // Mutable constant bytes (for folding batch norm into a convolution).
  std::vector<uint8_t>& constant_bytes(uint32_t id) { return constants_[values_[id].constant]; }

  // Appends a node; returns its index. `union_value` is owned afterwards.
  size_t add_node(fb_xnnpack::XNodeUnion type, void* union_value);
  fb_xnnpack::XNodeT& node(size_t index) { return *nodes_[index]; }
  size_t num_nodes() const { return nodes_.size(); }
  void set_output_min_max(size_t node, float lo, float hi);

  // Node helpers (the ids are value ids of this builder).
  size_t unary(fb_xnnpack::XNodeUnion type, uint32_t in, uint32_t out);
  size_t binary(fb_xnnpack::XNodeUnion type, uint32_t a, uint32_t b, uint32_t out);
  size_t transpose(const std::vector<uint32_t>& perm, uint32_t in, uint32_t out);
  size_t reshape(const std::vector<uint32_t>& shape, uint32_t in, uint32_t out);

  // The blob. InvalidArgument if an external id is missing or used twice.
  aot::Result<XnnpackBlob> serialize(ConstantPlacement placement) const;

 private:
  struct ValueRec {
    std::vector<uint32_t> dims;
    int32_t constant = -1;  // index into constants_
    uint32_t external_id = kXnnInvalidId;
    uint32_t flags = 0;
    ValueType type;
  };
  std::vector<ValueRec> values_;
  std::vector<std::vector<uint8_t>> constants_;
  std::vector<std::unique_ptr<fb_xnnpack::XNodeT>> nodes_;
};

// The blob's XH00 header fields as read back (for tests and the inspect tool).
struct XnnpackHeaderView {
  uint32_t flatbuffer_offset = 0, flatbuffer_size = 0, constant_data_offset = 0;
  uint64_t constant_data_size = 0;
};
aot::Result<XnnpackHeaderView> parse_xnnpack_header(const std::vector<uint8_t>& blob);

}  // namespace ember::backends::xnnpack
