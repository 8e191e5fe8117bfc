// Nodes upstream's exporter emits but this XNNPACK's subgraph API lacks
// (static transpose, concatenate, static slice, copy, tanh/exp/log/sin/cos/gelu/
// rsqrt, batch matrix multiply) run as small kernels inside the delegate, between
// two XNNPACK subgraph runtimes. Data movement works for any element size; the
// math kernels are fp32 only. Single-threaded, no allocation.
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/shape_inference.h"

namespace ember::backends::xnnpack {

// Load-time check of an Internal node's datatypes: NotSupported naming the node.
runtime::Error check_internal_node(const GraphModel& model, uint32_t index);

// Runs Internal node `index`: data[v] is the buffer of value v, shapes[v] its shape.
void run_internal_node(const GraphModel& model, uint32_t index, const Shape* shapes,
                       void* const* data);

// Family kernels (internal_layout.cc, internal_math.cc).
void run_transpose(const fb_xnnpack::XNNStaticTranspose* t, const Shape& in, size_t elem,
                   const void* src, void* dst);
void run_concat(uint32_t axis, const Shape* in_shapes, const void* const* srcs, uint32_t n,
                size_t elem, void* dst);
void run_slice(const fb_xnnpack::XNNStaticSlice* s, const Shape& in, const Shape& out,
               size_t elem, const void* src, void* dst);
void run_unary_math(fb_xnnpack::XNodeUnion type, size_t n, const float* x, float* y);
void run_batch_matmul(const Shape& a, const Shape& b, const float* x, const float* w, float* y);

}  // namespace ember::backends::xnnpack
