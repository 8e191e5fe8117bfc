// Defining one XNode in an XNNPACK subgraph, one file per node family like
// XNNPACK's own src/subgraph/: define_elementwise.cc (binary, unary, clamp,
// activations, softmax, convert), define_conv.cc (convolution, depthwise,
// deconvolution, fully connected), define_pooling.cc, define_layout.cc
// (reshape, pad, resize), define_attention.cc (scaled-dot-product attention). A node this XNNPACK
// rejects fails with an error that names the node (index and type), the xnn_define_* call and the
// datatypes.
#pragma once

#include <xnnpack.h>

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/shape_inference.h"

namespace ember::backends::xnnpack {

// What a family definer needs: the subgraph, the model, the value-id map of this
// subgraph (serialized id -> XNNPACK id, XNN_INVALID_VALUE_ID when absent) and
// the shapes of the plan being built.
struct DefineContext {
  xnn_subgraph_t subgraph = nullptr;
  const GraphModel* model = nullptr;
  const uint32_t* xnn_ids = nullptr;
  const Shape* shapes = nullptr;

  uint32_t id(uint32_t value_id) const {
    return value_id == kInvalidId ? XNN_INVALID_VALUE_ID : xnn_ids[value_id];
  }
};

// Defines node `index` (a NodeRunner::Subgraph node).
runtime::Error define_node(const DefineContext& ctx, uint32_t index);

// Family definers; each returns NotSupported (with a message) for types it does
// not handle, so define_node can try them in turn.
runtime::Error define_elementwise(const DefineContext& ctx, uint32_t index, bool* handled);
runtime::Error define_conv(const DefineContext& ctx, uint32_t index, bool* handled);
runtime::Error define_pooling(const DefineContext& ctx, uint32_t index, bool* handled);
runtime::Error define_layout(const DefineContext& ctx, uint32_t index, bool* handled);
runtime::Error define_attention(const DefineContext& ctx, uint32_t index, bool* handled);

// Turns a failed xnn_define_* status into a named error.
runtime::Error define_failed(const DefineContext& ctx, uint32_t index, const char* function,
                             xnn_status status);

// Defines an internal float32 value (static when `data` is set) that a rewrite adds to the
// subgraph: the paired and blocked convolutions' helper tensors.
xnn_status define_internal_f32(xnn_subgraph_t subgraph, const size_t* dims, size_t rank,
                               const void* data, uint32_t* xnn_id);

// Defines one value of the model in the subgraph with the plan's shape.
runtime::Error define_value(xnn_subgraph_t subgraph, const GraphModel& model, uint32_t value_id,
                            const Shape& shape, uint32_t external_id, uint32_t flags,
                            uint32_t* xnn_id);

// "success", "invalid_parameter", ...
const char* xnn_status_name(xnn_status status);

}  // namespace ember::backends::xnnpack
