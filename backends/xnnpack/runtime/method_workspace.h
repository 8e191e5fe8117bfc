// MethodWorkspace: one XNNPACK workspace shared by every XNNPACK delegate of one method instance.
// A runtime's internal values (everything but its external inputs and outputs and its packed
// weights) live in its workspace, which XNNPACK allocates zero-filled, so every byte of it is
// resident. A decoder lowers to one delegate per layer (attention stays outside), each with a
// prefill and a decode plan: with a workspace per runtime, the SmolLM2-135M shape held 30 layers'
// prefill activations at once (56 MB at 64 tokens) though only one stage runs at a time. The
// delegates of a method run one after another, so they share one workspace, sized by XNNPACK to the
// largest stage (it grows it and moves the other runtimes' pointers when a larger one is planned).
// The key is the method's runtime allocator (BackendInitContext), which lives exactly as long as
// the method's delegates. A caller that gives two methods one allocator and runs them on two
// threads still gets correct results: execute holds mutex() while it plans, binds and runs.
#pragma once

#include <xnnpack.h>

#include <cstddef>
#include <mutex>

#include "runtime/core/result.h"

namespace ember::backends::xnnpack {

class MethodWorkspace {
 public:
  // The workspace of the method keyed by `owner` (created by its first delegate). Each successful
  // acquire is paired with one release(); the last release frees it (XNNPACK keeps the memory
  // until its last runtime is deleted).
  static runtime::Result<MethodWorkspace*> acquire(const void* owner);
  void release();

  xnn_workspace_t get() const { return workspace_; }
  // Held while a delegate of this method creates a plan, binds or runs.
  std::mutex& mutex() { return mu_; }

  // The method's scratch for the bytes that live during one execute only (plans' boundary
  // values and padded input copies, shape_plan.h): at least `bytes`, kScratchAlignment-aligned,
  // grown (never shrunk) when a larger plan first runs, so its address may change between
  // calls; null when out of memory. Call with mutex() held.
  void* scratch(size_t bytes);

  // Methods with a live workspace (tests).
  static size_t num_live();

  MethodWorkspace(const MethodWorkspace&) = delete;
  MethodWorkspace& operator=(const MethodWorkspace&) = delete;

 private:
  MethodWorkspace(const void* owner, xnn_workspace_t workspace) : owner_(owner), workspace_(workspace) {}
  ~MethodWorkspace();

  const void* owner_;
  xnn_workspace_t workspace_;
  size_t users_ = 1;
  std::mutex mu_;
  void* scratch_ = nullptr;
  size_t scratch_bytes_ = 0;
};

}  // namespace ember::backends::xnnpack
