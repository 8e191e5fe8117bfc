// Partition: how the nodes of one XNNGraph are split into stages, computed once
// at init. Consecutive nodes XNNPACK can run form one subgraph stage (one
// xnn_runtime); a Winograd convolution (winograd_stage.h) is a stage of its own between them,
// so a valid graph is one stage, or one per such node and per run between them. Values that cross a stage boundary become external values of
// the subgraphs on both sides and get a delegate-owned buffer. Also validates the
// dataflow: every input is a constant, a graph input or an earlier node's output.
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"

namespace ember::backends::xnnpack {

struct Stage {
  NodeRunner runner = NodeRunner::Subgraph;
  uint32_t first_node = 0;
  uint32_t end_node = 0;  // one past the last node
  const uint32_t* externals = nullptr;  // values bound from outside
  uint32_t num_externals = 0;
};

struct Partition {
  Stage* stages = nullptr;
  uint32_t num_stages = 0;
  bool* boundary = nullptr;         // per value: needs a delegate-owned buffer
  bool* feeds_subgraph = nullptr;   // per value: read by a subgraph stage
  uint32_t* extern_value = nullptr;  // per external id: the value bound to args[id]
};

// Builds the partition; NotSupported names the first node nobody can run,
// InvalidProgram names a value with broken dataflow or external ids.
runtime::Error build_partition(const GraphModel& model, runtime::MemoryAllocator* allocator,
                               Partition* partition);

inline bool is_graph_input(const ValueInfo& v) { return (v.flags & 0x1) != 0; }
inline bool is_graph_output(const ValueInfo& v) { return (v.flags & 0x2) != 0; }

}  // namespace ember::backends::xnnpack
