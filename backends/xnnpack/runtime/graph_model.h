// GraphModel: the validated, flattened view of one XNNGraph that the rest of the
// delegate works from. read_graph() checks the untrusted FlatBuffer (identifier
// XN00/XN01, verifier, every value id, node id, dim count, flag and constant
// index) and fills one ValueInfo per serialized value id and one NodeDesc per
// node, so later stages never re-validate. Arrays live in the caller's allocator.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/xnnpack/schema/xnnpack_graph_generated.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

constexpr size_t kMaxDims = 6;            // XNN_MAX_TENSOR_DIMS of this XNNPACK
constexpr uint32_t kInvalidId = 0xFFFFFFFFu;
constexpr size_t kMaxExterns = 4096;      // upstream's bound on num_externs
constexpr size_t kMaxNodeInputs = 5;
constexpr size_t kMaxNodeOutputs = 2;

// PerTokenDynamic: qdint8 activations, quantized by XNNPACK per row (of the leading
// rank - num_nonbatch_dims dims) at run time. Blockwise: qbint4 weights with one bf16 scale
// per block of block_size input channels per output channel.
enum class QuantKind : uint8_t {
  None,
  PerTensor,
  PerChannel,
  PerTokenDynamic,
  Blockwise,
  Unsupported
};

struct ValueInfo {
  bool defined = false;
  fb_xnnpack::XNNDatatype datatype = fb_xnnpack::XNNDatatype::xnn_datatype_invalid;
  uint32_t rank = 0;
  size_t dims[kMaxDims] = {};  // as serialized: the static shape, or the upper bound
  const void* data = nullptr;  // constant bytes, or null for activations
  size_t data_size = 0;
  uint32_t external_id = kInvalidId;
  uint32_t flags = 0;
  QuantKind quant = QuantKind::None;
  const char* quant_name = "";  // union member name when Unsupported
  float scale = 0.f;
  int32_t zero_point = 0;
  const float* channel_scales = nullptr;  // PerChannel: num_scales floats
  uint32_t num_scales = 0;
  uint32_t channel_dim = 0;
  uint32_t num_nonbatch_dims = 0;          // PerTokenDynamic
  uint32_t block_size = 0;                 // Blockwise
  const uint16_t* block_scales = nullptr;  // Blockwise: bf16, [channels][blocks]
};

// Where a node runs: inside an XNNPACK subgraph, in a stage of its own as a Winograd
// convolution (winograd_stage.h), or nowhere (init fails naming it).
// Grouped16: grouped16_stage.h; FewRows: few_rows_stage.h.
enum class NodeRunner : uint8_t { Subgraph, Unsupported, Winograd, Grouped16, FewRows };

struct NodeDesc {
  fb_xnnpack::XNodeUnion type = fb_xnnpack::XNodeUnion::NONE;
  const fb_xnnpack::XNode* node = nullptr;
  NodeRunner runner = NodeRunner::Unsupported;
  uint32_t inputs[kMaxNodeInputs] = {};  // value ids; optional slots hold kInvalidId
  uint32_t num_inputs = 0;
  uint32_t outputs[kMaxNodeOutputs] = {};
  uint32_t num_outputs = 0;
  float output_min = 0.f;
  float output_max = 0.f;
  // Convolutions run on pixel pairs (paired_conv.h): the paired filter and bias, else null.
  const float* paired_filter = nullptr;
  const float* paired_bias = nullptr;
  // Convolutions with filters larger than L2 run grouped over input copies (blocked_conv.h):
  // the number of groups (1: plain) and the zeros [groups][C] the copies are made with.
  uint32_t conv_blocks = 1;
  const float* block_zeros = nullptr;
  // Winograd convolutions (winograd_stage.h): the tile size m (2 or 4, 0: none) and the
  // transformed filter [(m + 2)²][CI][CO].
  uint32_t winograd_tile = 0;
  const float* winograd_filter = nullptr;
  // Grouped convolutions with 16-channel groups (grouped16_stage.h): the packed filter.
  const float* grouped16_filter = nullptr;
  // 1x1 convolutions on few pixels (few_rows_stage.h): the packed filter.
  const float* few_rows_filter = nullptr;
};

struct GraphModel {
  const fb_xnnpack::XNNGraph* graph = nullptr;
  ValueInfo* values = nullptr;  // indexed by serialized id_out
  uint32_t num_values = 0;
  NodeDesc* nodes = nullptr;
  uint32_t num_nodes = 0;
  uint32_t num_externs = 0;
  // Number of named-data buffers held (see ConstantStore).
  size_t num_held = 0;
  runtime::FreeableBuffer* held = nullptr;
};

// Parses `blob` (with or without an XH00 header), resolving constants from the
// blob's constant region, the legacy in-FlatBuffer buffers, or `named_data`.
// Named-data buffers are kept in model->held until release_graph(). The blob
// must outlive the model. Errors carry a message naming the value or node.
runtime::Error read_graph(const void* blob, size_t size, const runtime::NamedDataMap* named_data,
                          runtime::MemoryAllocator* allocator, GraphModel* model);

// Frees the named-data buffers the model holds.
void release_graph(GraphModel* model);

// "XNNAdd", "XNNConv2d", ... ("unknown" for codes outside the union).
const char* node_type_name(fb_xnnpack::XNodeUnion type);
const char* datatype_name(fb_xnnpack::XNNDatatype type);

// Bytes per element of an XNNPACK datatype (0 for sub-byte or invalid types).
size_t datatype_size(fb_xnnpack::XNNDatatype type);

// 4-bit weights (qcint4, qbint4): two per byte, each innermost row padded to a whole byte.
bool is_int4(fb_xnnpack::XNNDatatype type);

// A float value without quantization parameters.
inline bool is_plain_f32(const ValueInfo& v) {
  return v.datatype == fb_xnnpack::XNNDatatype::xnn_datatype_fp32 && v.quant == QuantKind::None;
}

// The convolution attributes of a node whose union is an XNNConv2d (or depthwise) node.
inline const fb_xnnpack::_XNNNodeConv* conv_of(const NodeDesc& d) {
  return static_cast<const fb_xnnpack::_XNNNodeConv*>(d.node->xnode_union());
}

// Constant data (the payload's constant region or a named-data buffer) need not be aligned for
// its type; a delegate stage that reads floats in place takes only 4-byte-aligned constants (the
// rest stay with XNNPACK, which copies when it packs).
inline bool float_aligned(const void* p) { return reinterpret_cast<uintptr_t>(p) % alignof(float) == 0; }

}  // namespace ember::backends::xnnpack
