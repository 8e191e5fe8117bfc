// Per-node input/output value ids and runner (subgraph / internal / unsupported),
// read from one XNode of the untrusted FlatBuffer. See node_io.cc.
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"

namespace ember::backends::xnnpack {

// Fills desc from `node` (the index is for messages). InvalidProgram when the
// node's table is missing or its type code is unknown. Ids are not range-checked.
runtime::Error describe_node(const fb_xnnpack::XNode* node, uint32_t index, NodeDesc* desc);

// True for input slots that may be kInvalidId (conv/FC bias).
bool input_is_optional(fb_xnnpack::XNodeUnion type, uint32_t slot);

}  // namespace ember::backends::xnnpack
