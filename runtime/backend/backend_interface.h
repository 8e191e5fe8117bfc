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

// Receives per-operator times from inside a delegate call while profiling is on
// (Method::set_delegate_profiler; executor_runner --profile / --trace). A backend that can
// time its operators calls record() once per operator run; one that cannot never calls it
// (its delegate call is then timed as a whole). record() must not allocate.
class DelegateProfiler {
 public:
  virtual ~DelegateProfiler() = default;
  // `instruction`: the delegate call's instruction index in the method; `op`: the operator's
  // index inside the delegate (the demo backend: its bytecode instruction); `name`: a static
  // string; times from ember_pal_now_ns().
  virtual void record(size_t instruction, uint32_t op, const char* name, uint64_t start_ns,
                      uint64_t end_ns) = 0;
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
  // Non-null while profiling: report per-operator times to it for instruction().
  DelegateProfiler* profiler() const { return profiler_; }
  size_t instruction() const { return instruction_; }
  void set_profiler(DelegateProfiler* profiler, size_t instruction) {
    profiler_ = profiler;
    instruction_ = instruction;
  }

 private:
  MemoryAllocator* temp_allocator_;
  const char* method_name_;
  ThreadPool* thread_pool_;
  DelegateProfiler* profiler_ = nullptr;
  size_t instruction_ = 0;
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
