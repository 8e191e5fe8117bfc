// ShapePlan: everything that depends on the input shapes: every value's shape,
// one xnn_runtime per subgraph stage (this XNNPACK's runtimes have static shapes)
// and where the buffers of boundary values and padded input copies go. XNNPACK allocates
// its runtimes on the heap. Those buffers hold bytes only during one execute, so they are
// offsets into a scratch block the caller passes to run's binding (the method's, shared by its
// delegates: method_workspace.h) rather than memory of each plan. The executor caches a few
// plans, one per input shape.
#pragma once

#include <pthreadpool.h>
#include <xnnpack.h>

#include <cstdint>

#include "backends/xnnpack/runtime/graph_model.h"
#include "backends/xnnpack/runtime/packed_weights_cache.h"
#include "backends/xnnpack/runtime/partition.h"
#include "backends/xnnpack/runtime/shape_inference.h"
#include "backends/xnnpack/runtime/winograd_stage.h"

namespace ember::backends::xnnpack {

// Bounds on the memory one plan's activations (non-constant values) and XNNPACK's
// conv/pooling indirection buffers may need: a graph whose shapes exceed them (a corrupt or hostile payload; no device model
// comes near) fails at load with a named error instead of asking for gigabytes or
// overflowing a size computation.
constexpr uint64_t kMaxValueBytes = uint64_t{1} << 30;       // one activation or buffer
constexpr uint64_t kMaxActivationBytes = uint64_t{1} << 31;  // all of a plan's activations
// Alignment of each buffer in a plan's scratch (and of the scratch itself).
constexpr size_t kScratchAlignment = 64;

class ShapePlan {
 public:
  ShapePlan() = default;
  ~ShapePlan();
  ShapePlan(const ShapePlan&) = delete;
  ShapePlan& operator=(const ShapePlan&) = delete;

  // Builds the plan for `input_shapes` (indexed by external id; entries of
  // outputs are ignored). A subgraph stage gets `pool` when its work per node
  // (stage_work.h) is at least `min_parallel_work`. Static weights are packed through
  // `weights_cache` (may be null: each runtime then packs its own copy), so plans of one
  // executor share them (packed_weights_cache.h); the cache is open only while a runtime is
  // created (XNNPACK packs then), and closed when it is reshaped: a reshape that grows a shared
  // workspace sets up the other runtimes of that workspace again, which XNNPACK refuses while
  // their weights cache is open. The runtimes' internal values live in `workspace`
  // (method_workspace.h; null: a workspace of their own, freed with the plan).
  // Errors name the node or value that failed.
  runtime::Error build(const GraphModel& model, const Partition& partition,
                       const Shape* input_shapes, pthreadpool_t pool, uint64_t min_parallel_work,
                       PackedWeightsCache* weights_cache, xnn_workspace_t workspace);

  const Shape& shape(uint32_t value) const { return shapes_[value]; }
  // True when this plan was built for these input shapes.
  bool matches(const GraphModel& model, const Partition& partition, const Shape* inputs) const;

  // Runs every stage; data[v] must hold each value's buffer (see buffer()). A stage
  // whose external pointers are the ones it was last set up with is invoked
  // without calling xnn_setup_runtime again (setup dominates small graphs).
  runtime::Error run(const GraphModel& model, const Partition& partition, void* const* data,
                     xnn_external_value* scratch) const;

  // Bytes of scratch the plan's boundary values and padded input copies need.
  size_t scratch_bytes() const { return scratch_bytes_; }
  // The buffer of a boundary value or padded input copy in `scratch` (at least scratch_bytes(),
  // 64-byte aligned), else null.
  void* buffer(uint32_t value, void* scratch) const {
    return offsets_[value] == kNoBuffer ? nullptr : static_cast<uint8_t*>(scratch) + offsets_[value];
  }

  // Subgraph stages whose runtime was given the pool.
  uint32_t num_parallel_stages() const { return num_parallel_stages_; }
  // Stages run as Winograd convolutions (winograd_stage.h).
  uint32_t num_winograd_stages() const { return num_winograd_stages_; }
  // Reshapes whose producer writes the external output directly (elidable_reshape_input).
  uint32_t num_elided_reshapes() const { return num_elided_reshapes_; }
  // The graph is one reshape from an input to an output (upstream's partitioner emits such
  // delegates, e.g. for a decoder's logits): run() copies the bytes, with no XNNPACK runtime
  // and no padded input copy (a copy reads nothing past the end).
  bool copy_only() const { return copy_only_; }

  uint64_t last_used = 0;

 private:
  runtime::Error build_stage(const GraphModel& model, const Partition& partition, uint32_t stage,
                             pthreadpool_t pool, PackedWeightsCache* weights_cache,
                             xnn_workspace_t workspace, uint32_t* xnn_ids);

  uint32_t num_values_ = 0;
  uint32_t num_stages_ = 0;
  uint32_t num_parallel_stages_ = 0;
  uint32_t num_elided_reshapes_ = 0;
  uint32_t num_winograd_stages_ = 0;
  bool copy_only_ = false;
  static constexpr size_t kNoBuffer = SIZE_MAX;
  Shape* shapes_ = nullptr;
  size_t* offsets_ = nullptr;  // per value: its buffer's offset in the scratch, or kNoBuffer
  size_t scratch_bytes_ = 0;
  xnn_runtime_t* runtimes_ = nullptr;
  // Per stage: the Winograd convolution it runs (winograd_stage.h), else null (a Winograd
  // stage whose shapes fail the tile rule has a one-node runtime instead).
  WinogradStage** winograd_ = nullptr;
  // Pointers each stage was last set up with: stage s owns
  // bound_[bound_offset_[s] .. bound_offset_[s] + num_externals).
  mutable void** bound_ = nullptr;
  uint32_t* bound_offset_ = nullptr;
};

}  // namespace ember::backends::xnnpack
