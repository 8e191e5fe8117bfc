// MethodWorkspace: see method_workspace.h.
#include "backends/xnnpack/runtime/method_workspace.h"

#include <cstdlib>
#include <new>
#include <vector>

#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/shape_plan.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

// Live workspaces, one per method; touched only when delegates are created or destroyed.
std::mutex& registry_mutex() {
  static std::mutex mu;
  return mu;
}

std::vector<MethodWorkspace*>& registry() {
  static std::vector<MethodWorkspace*>* live = new std::vector<MethodWorkspace*>();  // never destroyed:
  return *live;  // delegates of static objects may be released during exit
}

}  // namespace

MethodWorkspace::~MethodWorkspace() {
  std::free(scratch_);
  xnn_release_workspace(workspace_);
}

void* MethodWorkspace::scratch(size_t bytes) {
  if (bytes <= scratch_bytes_ && scratch_ != nullptr) return scratch_;
  const size_t rounded = (bytes + kScratchAlignment - 1) / kScratchAlignment * kScratchAlignment;
  void* grown = std::aligned_alloc(kScratchAlignment, rounded == 0 ? kScratchAlignment : rounded);
  if (grown == nullptr) return nullptr;
  std::free(scratch_);
  scratch_ = grown;
  scratch_bytes_ = rounded;
  return scratch_;
}

runtime::Result<MethodWorkspace*> MethodWorkspace::acquire(const void* owner) {
  std::lock_guard<std::mutex> lock(registry_mutex());
  for (MethodWorkspace* w : registry()) {
    if (w->owner_ == owner) {
      ++w->users_;
      return w;
    }
  }
  xnn_workspace_t workspace = nullptr;
  const xnn_status status = xnn_create_workspace(&workspace);
  if (status != xnn_status_success) {
    return runtime::fail(runtime::Error::DelegateMemoryAllocationFailed,
                         "XNNPACK: xnn_create_workspace failed with %s", xnn_status_name(status));
  }
  auto* w = new (std::nothrow) MethodWorkspace(owner, workspace);
  if (w == nullptr) {
    xnn_release_workspace(workspace);
    return runtime::fail(runtime::Error::DelegateMemoryAllocationFailed,
                         "XNNPACK: no memory for a method workspace");
  }
  registry().push_back(w);
  return w;
}

void MethodWorkspace::release() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  if (--users_ != 0) return;
  std::vector<MethodWorkspace*>& live = registry();
  for (size_t i = 0; i < live.size(); ++i) {
    if (live[i] == this) {
      live[i] = live.back();
      live.pop_back();
      break;
    }
  }
  delete this;
}

size_t MethodWorkspace::num_live() {
  std::lock_guard<std::mutex> lock(registry_mutex());
  return registry().size();
}

}  // namespace ember::backends::xnnpack
