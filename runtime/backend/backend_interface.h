// BackendInterface: what a delegate backend implements (XNNPACK, demo, ...).
// Life cycle per delegate in a method: init() once at method load (from the
// processed blob and compile specs; allocate from the init context's runtime
// allocator), execute() per DelegateCall, destroy() when the Method goes away
// (only for delegates whose init succeeded). A backend must clean up after
// itself when init fails, and may free the processed blob once consumed.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/evalue.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/core/thread_pool.h"

namespace ember::runtime {

// One compile spec of a BackendDelegate: key and opaque bytes, pointing into the program.
struct CompileSpec {
  const char* key;
  const void* value;
  size_t nbytes;
};

// Opaque per-delegate state a backend returns from init().
using DelegateHandle = void;

class BackendInitContext final {
 public:
  BackendInitContext(MemoryAllocator* runtime_allocator, const char* method_name,
                     const NamedDataMap* named_data)
      : runtime_allocator_(runtime_allocator), method_name_(method_name), named_data_(named_data) {}

  // The method allocator: memory from it lives as long as the Method.
  MemoryAllocator* runtime_allocator() const { return runtime_allocator_; }
  const char* method_name() const { return method_name_; }
  // The program's named data merged with any external data map; may be null.
  const NamedDataMap* named_data_map() const { return named_data_; }

 private:
  MemoryAllocator* runtime_allocator_;
  const char* method_name_;
  const NamedDataMap* named_data_;
};

class BackendExecutionContext final {
 public:
  BackendExecutionContext(MemoryAllocator* temp_allocator, const char* method_name,
                          ThreadPool* thread_pool)
      : temp_allocator_(temp_allocator), method_name_(method_name), thread_pool_(thread_pool) {}

  // Temp memory valid until execute() returns; nullptr if none is left or given.
  void* allocate(size_t size, size_t alignment = alignof(std::max_align_t)) {
    return temp_allocator_ == nullptr ? nullptr : temp_allocator_->allocate(size, alignment);
  }
  MemoryAllocator* temp_allocator() const { return temp_allocator_; }
  const char* method_name() const { return method_name_; }
  ThreadPool* thread_pool() const { return thread_pool_; }

 private:
  MemoryAllocator* temp_allocator_;
  const char* method_name_;
  ThreadPool* thread_pool_;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;

  virtual bool is_available() const = 0;

  // `processed` is the delegate blob; the backend may call processed->free()
  // once it no longer needs it.
  virtual Result<DelegateHandle*> init(BackendInitContext& context, FreeableBuffer* processed,
                                       Span<const CompileSpec> compile_specs) const = 0;

  // args = the DelegateCall's values: the delegate's inputs, then its outputs.
  virtual Error execute(BackendExecutionContext& context, DelegateHandle* handle,
                        Span<EValue*> args) const = 0;

  virtual void destroy(DelegateHandle* handle) const {}
};

}  // namespace ember::runtime
