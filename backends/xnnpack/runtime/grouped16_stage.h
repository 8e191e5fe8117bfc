// Grouped16Stage: a grouped f32 convolution whose groups have 16 input and 16 output channels,
// run by the delegate with grouped16_conv.h as a stage of its own between XNNPACK subgraph
// stages (the mechanism of winograd_stage.h). XNNPACK 2024-11 pads such groups to its 32-wide
// tile; this runs them 16 outputs per vector, reading the filter's own bytes once, with the same
// summation order as XNNPACK's kernel (bit-identical outputs on RegNetX-400MF).
//
// prepare_grouped16_convs() picks the nodes once per executor, before the partition (so it never
// depends on shapes), on CPUs where grouped16_vectorized(): XNNConv2d with groups >= 2 of 16
// input and 16 output channels, dilation 1, no flags, at most 25 taps, f32 activations, static
// f32 filter (and bias). Each gets NodeRunner::Grouped16 and its packed filter from the
// executor's allocator (a node whose filter does not fit stays in its subgraph). A plan checks
// the node's shapes (check_grouped16) and runs it single-threaded (run_grouped16).
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/shape_inference.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

// `enabled` false (a delegate with a pool of several threads: these stages run single-threaded)
// marks nothing.
runtime::Error prepare_grouped16_convs(GraphModel* model, runtime::MemoryAllocator* allocator, bool enabled);
// InvalidArgument naming the node when the plan's input or output does not match the node.
runtime::Error check_grouped16(const GraphModel& m, uint32_t index, const Shape* shapes);
runtime::Error run_grouped16(const GraphModel& m, uint32_t index, const Shape* shapes, void* const* data);

}  // namespace ember::backends::xnnpack
