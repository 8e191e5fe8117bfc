// Shape propagation through an XNNGraph. This XNNPACK's subgraphs have static
// shapes, so when a DYNAMIC_BOUND input arrives smaller than its bound, the
// delegate recomputes every value's shape from the input shapes (this file) and
// builds a runtime for exactly those shapes. Layout rules are XNNPACK's (NHWC for
// conv/pooling). For static inputs the result equals the serialized dims.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"

namespace ember::backends::xnnpack {

struct Shape {
  uint32_t rank = 0;
  size_t dims[kMaxDims] = {};
  size_t numel() const;
  bool operator==(const Shape& o) const;
};

// Sets shapes[node outputs] from shapes[node inputs]. InvalidArgument, naming the
// node, when the input shapes do not fit the node (e.g. a reshape whose element
// count changed, a broadcast of incompatible dims).
runtime::Error infer_node_shapes(const GraphModel& model, uint32_t node_index, Shape* shapes);

// Declared shape of a value.
Shape declared_shape(const ValueInfo& value);

}  // namespace ember::backends::xnnpack
