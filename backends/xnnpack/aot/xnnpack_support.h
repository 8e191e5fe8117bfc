// Which edge-graph nodes the XNNPACK delegate takes, with a reason for every refusal:
// the op (against the operators of XNNPACK 0.0~git20241108 and the node types of the payload
// schema), dtypes (fp32 only), shapes (static, rank 1..6,
// non-empty) and attributes ("add with alpha != 1", "avg_pool2d with ceil_mode", ...).
// The lowering (serialize_ops_*.cc) handles exactly what this accepts.
#pragma once

#include "aot/backend/partitioner.h"
#include "aot/ir/graph.h"

namespace ember::backends::xnnpack {

aot::Support xnnpack_support(const aot::Node& node, const aot::Graph& graph);

}  // namespace ember::backends::xnnpack
