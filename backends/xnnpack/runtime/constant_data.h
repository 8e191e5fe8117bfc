// Where the bytes of a constant XNNPACK value live (pte-format.md section 6.4):
// constant_data[idx] of a blob with an XH00 header points either into the blob's
// constant region (offset, size) or, when named_key is set, at an entry of the
// NamedDataMap (the .pte's named_data or an external .ptd). Header-less legacy
// blobs use the deprecated in-FlatBuffer constant_buffer[idx]. Index 0 = none.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"

namespace ember::backends::xnnpack {

struct ConstantSource {
  const fb_xnnpack::XNNGraph* graph = nullptr;
  bool has_header = false;
  const uint8_t* region = nullptr;  // the blob's constant-data region (header only)
  uint64_t region_size = 0;
  const runtime::NamedDataMap* named_data = nullptr;
};

// Sets v->data/data_size for buffer `idx` (> 0) of value `id` and checks that the
// bytes cover the value's shape. Named-data buffers are kept in m->held.
runtime::Error resolve_constant(const ConstantSource& src, uint32_t idx, uint32_t id,
                                GraphModel* m, ValueInfo* v);

// The bytes of buffer `idx` (> 0) for value `id`; a named-data buffer is kept in *held.
runtime::Error lookup_constant(const ConstantSource& src, uint32_t idx, uint32_t id,
                               runtime::FreeableBuffer* held, const void** data, size_t* size);

// Sets v->channel_scales/num_scales from an inline list or from buffer `idx`.
runtime::Error resolve_scales(const ConstantSource& src,
                              const flatbuffers::Vector<float>* inline_scales, uint32_t idx,
                              uint32_t num_scales, uint32_t id, GraphModel* m,
                              ValueInfo* v);

}  // namespace ember::backends::xnnpack
