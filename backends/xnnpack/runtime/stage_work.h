// StageWork: whether one XNNPACK runtime (a subgraph stage) is given the thread pool.
// XNNPACK hands every operator of a runtime that has a pool to pthreadpool, and a hand-off
// costs microseconds whatever the operator's size: on a transformer layer with d_model 32
// (operators of 16K multiply-adds) two threads took 76 us a run where one took 45 us. Like
// ONNX Runtime's per-op cost model, the delegate estimates each stage's work per operator
// and keeps stages below a threshold (XnnpackBackend::set_min_parallel_work) on the
// calling thread (docs/decisions.md, "Small XNNPACK stages run on the calling thread").
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/partition.h"
#include "backends/xnnpack/runtime/shape_inference.h"

namespace ember::backends::xnnpack {

// Estimated work of one node: for a node whose second input is a constant filter (conv,
// depthwise conv, fully connected), output elements x filter elements / output channels
// (= multiply-adds); otherwise its output elements.
uint64_t node_work(const GraphModel& model, uint32_t node, const Shape* shapes);

// Average node_work over the stage's nodes (0 for an empty stage).
uint64_t work_per_node(const GraphModel& model, const Stage& stage, const Shape* shapes);

}  // namespace ember::backends::xnnpack
