// FewRowsStage: a 1x1 f32 convolution on few pixels (2-16 rows of its GEMM, not 7 or 14) run
// by the delegate with few_rows_gemm.h as a stage of its own between XNNPACK subgraph stages.
// XNNPACK 2024-11's AVX-512F f32 GEMM tiles are 7 and 1 rows: 9 rows (SqueezeNet's classifier
// on its 3x3 map) do 14 rows of work and stream the filter twice; few_rows_gemm keeps up to 12
// rows in registers (16 rows: two passes of 8), bit-identical to XNNPACK's sums.
//
// prepare_few_rows_convs() picks the nodes once per executor, before the partition, on CPUs
// where few_rows_vectorized(): XNNConv2d with a 1x1 kernel, stride 1, no padding, groups 1, no
// flags, f32 activations, static f32 filter (and bias), whose serialized output has 2-16
// pixels in all, not 7 or 14. Each gets NodeRunner::FewRows and its filter packed from the
// executor's allocator. A plan whose shapes have another pixel count runs the node as a
// one-node XNNPACK subgraph (few_rows_applies false).
#pragma once

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/shape_inference.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

// `enabled` false (a delegate with a pool of several threads: these stages run single-threaded)
// marks nothing.
runtime::Error prepare_few_rows_convs(GraphModel* model, runtime::MemoryAllocator* allocator, bool enabled);
// The plan's shapes fit the rule (pixel count, channels): run by run_few_rows.
bool few_rows_applies(const GraphModel& m, uint32_t index, const Shape* shapes);
runtime::Error run_few_rows(const GraphModel& m, uint32_t index, const Shape* shapes, void* const* data);

}  // namespace ember::backends::xnnpack
