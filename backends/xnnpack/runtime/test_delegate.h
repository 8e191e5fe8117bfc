// Delegate: one XNNPACK delegate built from a GraphBuilder payload, initialised and run through
// the backend interface as a method would (tests of backends/xnnpack/runtime only).
#pragma once

#include <cstdint>
#include <vector>

#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/memory_allocator.h"

namespace ember::backends::xnnpack::testing {

class Delegate {
 public:
  // `method_allocator`: another delegate's, as the delegates of one method share theirs.
  explicit Delegate(const GraphBuilder& g, const runtime::NamedDataMap* named = nullptr,
                    runtime::MemoryAllocator* method_allocator = nullptr)
      : blob_(g.blob()), arena_(1 << 20), allocator_(arena_.data(), arena_.size()) {
    runtime::BackendInitContext ctx(method_allocator != nullptr ? method_allocator : &allocator_,
                                    "forward", named);
    runtime::FreeableBuffer buffer(blob_.data(), blob_.size());
    auto h = backend_instance().init(ctx, &buffer, {});
    init_error_ = h.error();
    if (h.ok()) handle_ = h.get();
  }
  ~Delegate() {
    if (handle_ != nullptr) backend_instance().destroy(handle_);
  }
  runtime::Error init_error() const { return init_error_; }
  runtime::Error run(std::vector<HeapTensor*> args) {
    std::vector<runtime::EValue*> values;
    for (HeapTensor* t : args) values.push_back(&t->value);
    runtime::BackendExecutionContext ctx(nullptr, "forward", nullptr);
    return backend_instance().execute(ctx, handle_, {values.data(), values.size()});
  }
  XnnpackExecutor* executor() const { return static_cast<XnnpackExecutor*>(handle_); }
  runtime::MemoryAllocator* allocator() { return &allocator_; }

 private:
  std::vector<uint8_t> blob_;
  std::vector<uint8_t> arena_;
  runtime::MemoryAllocator allocator_;
  void* handle_ = nullptr;
  runtime::Error init_error_ = runtime::Error::Ok;
};

}  // namespace ember::backends::xnnpack::testing
