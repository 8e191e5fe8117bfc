// XnnpackBackend: the XNNPACK delegate of the Ember runtime, wire-compatible with
// upstream ExecuTorch's "XnnpackBackend" payload (XH00 header + XNNGraph
// FlatBuffer + constants in the blob or in named data), running on the XNNPACK
// that Debian 12 ships (Feb 2022: subgraph API v2, static shapes). Nodes that
// XNNPACK lacks but the exporter emits (transpose, concatenate, slice, tanh,
// batch matmul, ...) run in small kernels inside the delegate; the rest fail at
// load with an error naming the node. Registration is explicit:
//
//   ember::backends::xnnpack::register_backend(ember::runtime::default_backend_registry());
//   ember::backends::xnnpack::set_num_threads(4);  // optional, default 1
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/backend/backend_interface.h"
#include "runtime/backend/backend_registry.h"

namespace ember::backends::xnnpack {

// The name upstream's exporter writes into BackendDelegate.id.
constexpr const char* kBackendName = "XnnpackBackend";

// Default of XnnpackBackend::set_min_parallel_work, in multiply-adds (or elements, for
// operators without a filter) per operator: about two pool hand-offs' worth of
// single-thread work on a 2022 x86 core.
constexpr uint64_t kDefaultMinParallelWork = 50000;

class XnnpackBackend final : public runtime::BackendInterface {
 public:
  XnnpackBackend() = default;
  ~XnnpackBackend() override;

  // True when xnn_initialize succeeds (the CPU is supported).
  bool is_available() const override;

  // Validates the blob, resolves its constants (from the blob or the context's
  // NamedDataMap) and builds the XNNPACK runtimes. The handle (and tables) come
  // from the runtime allocator; XNNPACK runtimes and stage buffers from the heap.
  // The blob is kept (not freed): a new input shape needs the graph again.
  runtime::Result<runtime::DelegateHandle*> init(
      runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
      runtime::Span<const runtime::CompileSpec> compile_specs) const override;

  runtime::Error execute(runtime::BackendExecutionContext& context,
                         runtime::DelegateHandle* handle,
                         runtime::Span<runtime::EValue*> args) const override;

  void destroy(runtime::DelegateHandle* handle) const override;

  // Threads XNNPACK uses (pthreadpool); 1 (the default) runs on the caller's
  // thread. Applies to delegates initialised afterwards. Returns InvalidArgument
  // for 0.
  runtime::Error set_num_threads(size_t num_threads);
  size_t num_threads() const { return num_threads_; }

  // With more than one thread, an XNNPACK runtime (one run of consecutive nodes) gets the
  // pool only when its estimated work per node, in multiply-adds (elements for nodes
  // without a filter), is at least this; smaller ones run on the caller's thread, where a
  // pool hand-off per operator would cost more than it saves (stage_work.h). 0 gives every
  // runtime the pool. Default kDefaultMinParallelWork. Applies to delegates
  // initialised afterwards.
  void set_min_parallel_work(uint64_t work) { min_parallel_work_ = work; }
  uint64_t min_parallel_work() const { return min_parallel_work_; }

  // Stride-1 3x3 f32 convolutions whose transformed filter fits L2 run as Winograd
  // convolutions on CPUs with AVX-512F (winograd_stage.h; results differ from XNNPACK's direct
  // form by ~1e-6 to 1e-5 of the output's magnitude). false keeps every convolution in
  // XNNPACK's direct form. Default true. Applies to delegates initialised afterwards.
  void set_winograd(bool enabled) { winograd_ = enabled; }
  bool winograd() const { return winograd_; }

 private:
  void* pool_for_init() const;  // pthreadpool_t, created lazily (null for 1 thread)

  size_t num_threads_ = 1;
  uint64_t min_parallel_work_ = kDefaultMinParallelWork;
  bool winograd_ = true;
  mutable void* pool_ = nullptr;
  mutable size_t pool_threads_ = 0;
};

// The process-wide XnnpackBackend instance.
XnnpackBackend& backend_instance();

// Registers backend_instance() as "XnnpackBackend".
runtime::Error register_backend(runtime::BackendRegistry& registry);

// Sets the thread count of backend_instance() (executor_runner --cpu_threads).
runtime::Error set_num_threads(size_t num_threads);

// Sets the parallel threshold of backend_instance() (see XnnpackBackend::set_min_parallel_work).
void set_min_parallel_work(uint64_t work);

}  // namespace ember::backends::xnnpack
