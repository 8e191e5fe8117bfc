// KernelRuntimeContext: what a kernel may use besides its arguments. A kernel
// reports failure with fail() (never by aborting, allocating or printing), may
// take scratch memory from the temp allocator (reset after any instruction that took some),
// and may split work over the caller's thread pool (null = single thread).
#pragma once

#include <cstddef>

#include "runtime/core/diagnostics.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"
#include "runtime/core/thread_pool.h"

namespace ember::runtime {

class KernelRuntimeContext final {
 public:
  explicit KernelRuntimeContext(MemoryAllocator* temp_allocator = nullptr,
                                ThreadPool* thread_pool = nullptr)
      : temp_allocator_(temp_allocator), thread_pool_(thread_pool) {}

  // Marks the kernel as failed. The first failure wins.
  void fail(Error error) {
    if (failure_ == Error::Ok) failure_ = error;
  }
  // Marks the kernel as failed and records why (see diagnostics.h).
  template <typename... Args>
  void fail(Error error, const char* format, Args... args) {
    if (failure_ != Error::Ok) return;
    failure_ = error;
    if constexpr (sizeof...(Args) == 0) {
      runtime::fail(error, "%s", format);
    } else {
      runtime::fail(error, format, args...);
    }
  }
  Error failure_state() const { return failure_; }

  // Scratch memory valid until the kernel returns. NotFound without a temp
  // allocator, MemoryAllocationFailed when it is exhausted.
  Result<void*> allocate_temp(size_t size, size_t alignment = alignof(std::max_align_t)) {
    if (temp_allocator_ == nullptr) return Error::NotFound;
    temp_used_ = true;
    void* p = temp_allocator_->allocate(size, alignment);
    if (p == nullptr) return Error::MemoryAllocationFailed;
    return p;
  }
  // Whether allocate_temp was called: the instruction loop resets the temp allocator after a
  // kernel only then (most small kernels never take scratch).
  bool temp_used() const { return temp_used_; }

  ThreadPool* thread_pool() const { return thread_pool_; }

 private:
  MemoryAllocator* temp_allocator_;
  ThreadPool* thread_pool_;
  Error failure_ = Error::Ok;
  bool temp_used_ = false;
};

}  // namespace ember::runtime
