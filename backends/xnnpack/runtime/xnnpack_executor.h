// XnnpackExecutor: the state behind one XnnpackBackend delegate handle. init()
// validates the blob into a GraphModel, partitions it into stages and builds the
// plan for the serialized shapes (so unsupported nodes fail at load, and every weight is
// packed into the executor's PackedWeightsCache), then drops that plan. execute()
// binds args[external_id] (inputs then outputs), honours each tensor's
// dim_order (XNNPACK sees sizes permuted by it, like upstream), picks or builds
// the ShapePlan for the input shapes (bounded cache), resizes the outputs and
// runs the stages.
#pragma once

#include <pthreadpool.h>

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/method_workspace.h"
#include "backends/xnnpack/runtime/packed_weights_cache.h"
#include "backends/xnnpack/runtime/partition.h"
#include "backends/xnnpack/runtime/shape_plan.h"
#include "runtime/core/evalue.h"

namespace ember::backends::xnnpack {

constexpr size_t kMaxCachedPlans = 4;

class XnnpackExecutor {
 public:
  XnnpackExecutor() = default;
  ~XnnpackExecutor();
  XnnpackExecutor(const XnnpackExecutor&) = delete;
  XnnpackExecutor& operator=(const XnnpackExecutor&) = delete;

  // `blob` must outlive the executor. Arrays come from `allocator`. Stages whose work per
  // node is at least `min_parallel_work` run on `pool` (stage_work.h). Executors given the
  // same `allocator` (one method's delegates) share one XNNPACK workspace for their runtimes'
  // internal values (method_workspace.h). `winograd`: stride-1 3x3 convolutions may run as
  // Winograd convolutions (winograd_stage.h); false keeps XNNPACK's direct form.
  runtime::Error init(const void* blob, size_t size, const runtime::NamedDataMap* named_data,
                      runtime::MemoryAllocator* allocator, pthreadpool_t pool,
                      uint64_t min_parallel_work, bool winograd = true);
  runtime::Error execute(runtime::Span<runtime::EValue*> args);

  const GraphModel& model() const { return model_; }
  size_t num_cached_plans() const;
  // Packed static weights, shared by every plan (one copy whatever the number of shapes).
  const PackedWeightsCache& packed_weights() const { return packed_weights_; }
  // Subgraph stages of the most recently used plan that run on the pool.
  uint32_t num_parallel_stages() const;
  // The most recently used plan, or null (tests).
  const ShapePlan* latest_plan() const;

 private:
  runtime::Error read_input_shapes(runtime::Span<runtime::EValue*> args);
  // The cached plan for input_shapes_, or a new one whose runtimes use `workspace`.
  runtime::Result<ShapePlan*> plan_for_inputs(xnn_workspace_t workspace);
  runtime::Error bind(runtime::Span<runtime::EValue*> args, const ShapePlan& plan);

  GraphModel model_;
  Partition partition_;
  PackedWeightsCache packed_weights_;  // outlives plans_ (declared before, destroyed after)
  MethodWorkspace* workspace_ = nullptr;  // shared with the method's other delegates
  pthreadpool_t pool_ = nullptr;
  uint64_t min_parallel_work_ = 0;
  ShapePlan* plans_[kMaxCachedPlans] = {};
  uint64_t tick_ = 0;
  Shape* input_shapes_ = nullptr;  // per external id
  void** data_ = nullptr;          // per value, rebuilt each execute
  xnn_external_value* ext_ = nullptr;
};

}  // namespace ember::backends::xnnpack
