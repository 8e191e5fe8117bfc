// The C API's handle types (ember_program, ember_method) and the helpers every
// api_*.cc file shares: argument checks that record a message, and the step that
// copies the thread's last error message onto a handle. Internal to bindings/c.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>
#include <optional>

#include "bindings/c/handle_registry.h"
#include "ember/ember.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/hierarchical_allocator.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/program.h"
#include "runtime/loader/buffer_data_loader.h"
#include "runtime/loader/flat_tensor_data_map.h"
#include "runtime/loader/mmap_data_loader.h"
#include "runtime/module/growing_memory_allocator.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"

struct ember_program {
  bool in_caller_storage = false;
  std::optional<ember::runtime::MmapDataLoader> file;     // load_file
  std::optional<ember::runtime::BufferDataLoader> bytes;  // load_buffer
  std::optional<ember::runtime::MmapDataLoader> data_file;
  std::optional<ember::runtime::FlatTensorDataMap> data_map;
  std::optional<ember::runtime::Program> program;
  char error[ember::runtime::kMaxErrorMessageLength] = {};
  // Guarded by the handle registry's lock (handle_registry.h): methods created from this
  // program and not yet destroyed, and whether ember_program_destroy came first (then the
  // last method's destroy frees the program).
  size_t live_methods = 0;
  bool destroy_pending = false;
};

struct ember_method {
  ember_program* program = nullptr;
  bool in_caller_memory = false;
  // Runtime-owned memory: the method allocator grows from the heap during creation only;
  // planned buffers and the temp pool are heap blocks freed by destroy.
  std::optional<ember::runtime::GrowingMemoryAllocator> growing;
  uint8_t** heap_blocks = nullptr;  // from the method allocator; num_heap_blocks entries
  size_t num_heap_blocks = 0;
  // Caller memory: a bump allocator over the rest of the caller's arena.
  ember::runtime::MemoryAllocator arena_allocator;
  ember::runtime::MemoryAllocator* method_allocator = nullptr;
  ember::runtime::HierarchicalAllocator planned;
  ember::runtime::MemoryAllocator temp;
  std::optional<ember::runtime::MemoryManager> memory;
  ember::runtime::BackendRegistry backends;
  ember::runtime::PthreadpoolThreadPool* pool = nullptr;  // heap, created when num_threads > 1
  std::optional<ember::runtime::Method> method;
  void** input_storage = nullptr;  // per input: storage for copied unplanned tensors, or null
  ember::runtime::InstructionProfile* profile = nullptr;
  bool profiling = false;
  char error[ember::runtime::kMaxErrorMessageLength] = {};
  std::atomic<bool> busy{false};  // a call is running on it (MethodClaim)
};

namespace ember::capi {

using runtime::Error;

// Heap objects of the C API: malloc + placement new, destroyed with destroy_heap(). (Not
// `new (std::nothrow)`: the library is built without relying on exceptions, and a test's
// replaced operator new/delete must see matching pairs.)
template <typename T, typename... Args>
T* new_heap(Args&&... args) {
  void* p = std::malloc(sizeof(T));
  return p == nullptr ? nullptr : new (p) T(static_cast<Args&&>(args)...);
}
template <typename T>
void destroy_heap(T* p) {
  if (p == nullptr) return;
  p->~T();
  std::free(p);
}

inline ember_status to_status(Error e) {
  return static_cast<ember_status>(static_cast<uint32_t>(e));
}

// Copies the thread's last error message into `buffer` (a handle's) when `e` is an error.
inline ember_status finish(char* buffer, Error e);

// Frees a program handle (no registry work: callers unregister first).
void delete_program(ember_program* p);

// Holds a live method for one call: InvalidArgument if it is NULL or not live, InvalidState
// if another thread is inside a call on it; released (not busy) when it goes out of scope.
class MethodClaim {
 public:
  explicit MethodClaim(const ember_method* m) : m_(const_cast<ember_method*>(m)) {
    RegistryLock lock;
    error_ = check_handle_locked(m_, HandleKind::Method, "method");
    if (error_ == Error::Ok && m_->busy.exchange(true)) {
      error_ = runtime::fail(Error::InvalidState,
                             "method %p is in use by another thread (a method is used by one "
                             "thread at a time)", static_cast<void*>(m_));
    }
  }
  ~MethodClaim() {
    if (error_ == Error::Ok) m_->busy.store(false);
  }
  MethodClaim(const MethodClaim&) = delete;
  MethodClaim& operator=(const MethodClaim&) = delete;
  bool ok() const { return error_ == Error::Ok; }
  Error error() const { return error_; }

 private:
  ember_method* m_;
  Error error_;
};

// The process-wide kernel registry (prim ops + portable kernels), registered once.
Error linked_kernels(const runtime::KernelRegistry** out);
// Fills `registry` with the linked backends named in `list` ("A,B"; "" none; NULL all).
Error select_backends(const char* list, runtime::BackendRegistry* registry);
// Serialises XNNPACK's process-wide thread count with the delegate inits that read it.
void lock_backend_threads(size_t num_threads);
void unlock_backend_threads();

// Reads `size` bytes of a caller struct that begins with struct_size into `out` (already
// default-initialised): only the fields both sides know. InvalidArgument for a bad size.
template <typename T>
Error read_options(const T* in, T* out, const char* what) {
  if (in == nullptr) return Error::Ok;
  if (in->struct_size < sizeof(size_t)) {
    return runtime::fail(Error::InvalidArgument, "%s.struct_size is %zu; call %s_init first", what,
                         in->struct_size, what);
  }
  const size_t n = in->struct_size < sizeof(T) ? in->struct_size : sizeof(T);
  __builtin_memcpy(static_cast<void*>(out), in, n);
  out->struct_size = sizeof(T);
  return Error::Ok;
}

// Writes `value` into the caller's struct, up to its struct_size.
template <typename T>
Error write_result(const T& value, T* out, const char* what) {
  if (out == nullptr) return runtime::fail(Error::InvalidArgument, "%s is NULL", what);
  if (out->struct_size < sizeof(size_t)) {
    return runtime::fail(Error::InvalidArgument,
                         "%s->struct_size is %zu; call its _init function first", what,
                         out->struct_size);
  }
  const size_t n = out->struct_size < sizeof(T) ? out->struct_size : sizeof(T);
  const size_t keep = out->struct_size;
  __builtin_memcpy(static_cast<void*>(out), &value, n);
  out->struct_size = keep;
  return Error::Ok;
}

inline ember_status finish(char* buffer, Error e) {
  if (e != Error::Ok && buffer != nullptr) {
    const char* msg = runtime::last_error_message();
    size_t i = 0;
    for (; msg[i] != '\0' && i + 1 < runtime::kMaxErrorMessageLength; ++i) buffer[i] = msg[i];
    buffer[i] = '\0';
  }
  return to_status(e);
}

}  // namespace ember::capi
