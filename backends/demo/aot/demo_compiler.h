// The demo backend's preprocess: compiles a subgraph of supported float32 ops (demo_ops.h)
// into demo bytecode (backends/demo/FORMAT.md).
//
// Slots follow the delegate-call convention of the to_backend stage (partitioner.h): the
// subgraph's non-constant inputs become the input slots in input order, its outputs the
// output slots in output order, constant inputs (parameters, lifted constants) become
// constant slots holding their data, and every other value a scratch slot. Each node is
// one instruction. An output that is also an input, a constant or an earlier output gets
// a copy instruction. Errors name the node, its op and why it cannot be encoded.
#pragma once

#include <cstdint>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::backends::demo {

aot::Result<std::vector<uint8_t>> compile_subgraph(const aot::Graph& subgraph);

}  // namespace ember::backends::demo
