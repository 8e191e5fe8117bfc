// ember_method_create / _destroy / _memory_size: a method with runtime-owned memory
// (planned buffers sized from the program's memory plan, a method allocator that grows
// during creation only, a temp pool) or inside one caller arena (every block carved from
// it by a bump allocator: no malloc at all).
#include <unistd.h>

#include <cstdlib>
#include <new>

#include "bindings/c/handles.h"
#include "runtime/executor/memory_budget.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::capi {
namespace {

using runtime::Error;
using runtime::fail;
using runtime::MemoryAllocator;

constexpr size_t kAlign = 64;
constexpr size_t kDefaultTempBytes = size_t(1) << 20;
constexpr size_t kFirstChunkBytes = size_t(64) << 10;
constexpr size_t kMaxMethodBytes = size_t(1) << 30;
static_assert(EMBER_DEFAULT_MAX_PLANNED_MEMORY == runtime::kDefaultPlannedMemoryBudget);

size_t round_up(size_t n) { return (n + kAlign - 1) / kAlign * kAlign; }

// A 64-byte aligned block for planned memory or the temp pool: from the arena, or from
// the heap (remembered in heap_blocks for destroy).
uint8_t* take_block(ember_method* m, size_t size) {
  if (m->in_caller_memory) return static_cast<uint8_t*>(m->arena_allocator.allocate(size, kAlign));
  auto* p = static_cast<uint8_t*>(std::aligned_alloc(kAlign, round_up(size == 0 ? 1 : size)));
  if (p != nullptr) m->heap_blocks[m->num_heap_blocks++] = p;
  return p;
}

size_t thread_count(uint32_t asked) {
  const long cores = sysconf(_SC_NPROCESSORS_ONLN);
  const size_t cap = cores < 1 ? 1 : size_t(cores);
  return asked < 2 ? 1 : (asked > cap ? cap : asked);
}

Error load_method(ember_method* m, const runtime::Program& program, const char* name,
                  size_t threads) {
  const runtime::KernelRegistry* kernels = nullptr;
  EMBER_TRY(linked_kernels(&kernels));
  runtime::MethodLoadOptions options;
  options.kernels = kernels;
  options.backends = &m->backends;
  options.external_data = m->program->data_map ? &*m->program->data_map : nullptr;
  options.thread_pool = m->pool;
  lock_backend_threads(threads);
  runtime::Result<runtime::Method> method = program.load_method(name, &*m->memory, options);
  unlock_backend_threads();
  if (!method.ok()) return method.error();
  m->method.emplace(std::move(*method));
  return Error::Ok;
}

// Storage for copied tensor inputs and for outputs the program does not plan, and the
// profile table.
Error prepare_io(ember_method* m, const runtime::MethodMeta& meta) {
  const size_t n = m->method->inputs_size();
  m->input_storage = m->method_allocator->allocate_list<void*>(n == 0 ? 1 : n);
  if (m->input_storage == nullptr)
    return fail(Error::MemoryAllocationFailed, "no room for the input table");
  for (size_t i = 0; i < n; ++i) {
    m->input_storage[i] = nullptr;
    runtime::Result<runtime::TensorInfo> info = meta.input_tensor_meta(i);
    if (!info.ok() || info->is_memory_planned()) continue;  // not a tensor, or planned
    m->input_storage[i] =
        m->method_allocator->allocate(info->nbytes() == 0 ? 1 : info->nbytes(), kAlign);
    if (m->input_storage[i] == nullptr) {
      return fail(Error::MemoryAllocationFailed, "no room for input %zu (%zu bytes)", i,
                  info->nbytes());
    }
  }
  // Outputs the program does not plan get storage of their capacity, so that every output
  // can be read after execute (ember_method_set_output_buffer redirects one).
  for (size_t i = 0; i < m->method->outputs_size(); ++i) {
    runtime::Result<runtime::TensorInfo> info = meta.output_tensor_meta(i);
    if (!info.ok() || info->is_memory_planned()) continue;
    void* storage = m->method_allocator->allocate(info->nbytes() == 0 ? 1 : info->nbytes(), kAlign);
    if (storage == nullptr) {
      return fail(Error::MemoryAllocationFailed, "no room for output %zu (%zu bytes)", i,
                  info->nbytes());
    }
    // An output that is also an input keeps the input's memory (set_output_data_ptr refuses).
    if (m->method->set_output_data_ptr(storage, info->nbytes(), i) != Error::Ok) {
      runtime::clear_error_message();
    }
  }
  const size_t k = m->method->num_instructions();
  m->profile = m->method_allocator->allocate_list<runtime::InstructionProfile>(k == 0 ? 1 : k);
  if (m->profile == nullptr)
    return fail(Error::MemoryAllocationFailed, "no room for the profile table");
  for (size_t i = 0; i < k; ++i) m->profile[i] = runtime::InstructionProfile{};
  return Error::Ok;
}

Error build(ember_method* m, const char* name, const ember_method_options& o) {
  const runtime::Program& program = *m->program->program;
  EMBER_ASSIGN_OR_RETURN(runtime::MethodMeta meta, program.method_meta(name));
  const size_t nb = meta.num_memory_planned_buffers();
  if (m->in_caller_memory) {
    m->method_allocator = &m->arena_allocator;
  } else {
    // From the heap: the plan is checked against the planned-memory budget first (issue #33:
    // a program under 1 KiB planned 15 GB); the caller's arena bounds the other mode itself.
    const uint64_t budget = o.max_planned_memory_bytes == 0 ? EMBER_DEFAULT_MAX_PLANNED_MEMORY
                                                            : o.max_planned_memory_bytes;
    if (Error e = runtime::check_planned_memory(meta, budget).error(); e != Error::Ok) {
      return runtime::annotate(e, "ember_method_options.max_planned_memory_bytes %llu",
                               static_cast<unsigned long long>(budget));
    }
    m->growing.emplace(kFirstChunkBytes, kMaxMethodBytes);
    m->method_allocator = &*m->growing;
    m->heap_blocks = m->method_allocator->allocate_list<uint8_t*>(nb + 1);
    if (m->heap_blocks == nullptr)
      return fail(Error::MemoryAllocationFailed, "no room for the block table");
  }
  auto* spans = m->method_allocator->allocate_list<runtime::Span<uint8_t>>(nb == 0 ? 1 : nb);
  if (spans == nullptr)
    return fail(Error::MemoryAllocationFailed, "no room for the planned-buffer table");
  for (size_t i = 0; i < nb; ++i) {
    EMBER_ASSIGN_OR_RETURN(int64_t size, meta.memory_planned_buffer_size(i));
    uint8_t* block = take_block(m, size_t(size));
    if (block == nullptr) {
      return fail(Error::MemoryAllocationFailed, "no room for planned buffer %zu (%lld bytes)", i,
                  static_cast<long long>(size));
    }
    spans[i] = runtime::Span<uint8_t>(block, size_t(size));
  }
  m->planned = runtime::HierarchicalAllocator(runtime::Span<runtime::Span<uint8_t>>(spans, nb));
  const size_t temp_bytes = o.temp_bytes == 0 ? kDefaultTempBytes : o.temp_bytes;
  uint8_t* temp = take_block(m, temp_bytes);
  if (temp == nullptr)
    return fail(Error::MemoryAllocationFailed, "no room for %zu bytes of temp memory", temp_bytes);
  m->temp = MemoryAllocator(temp, temp_bytes);
  m->memory.emplace(m->method_allocator, &m->planned, &m->temp);
  EMBER_TRY(select_backends(o.backends, &m->backends));
  const size_t threads = thread_count(o.num_threads);
  if (threads > 1) {
    m->pool = new_heap<runtime::PthreadpoolThreadPool>(threads);
    if (m->pool == nullptr)
      return fail(Error::MemoryAllocationFailed, "cannot create a thread pool");
  }
  EMBER_TRY(load_method(m, program, name, threads));
  EMBER_TRY(prepare_io(m, meta));
  m->profiling = o.profiling != 0;
  return Error::Ok;
}

void destroy(ember_method* m) {
  if (m == nullptr) return;
  m->method.reset();  // delegates first, while the memory they use is alive
  destroy_heap(m->pool);
  m->pool = nullptr;
  for (size_t i = 0; i < m->num_heap_blocks; ++i) std::free(m->heap_blocks[i]);
  m->num_heap_blocks = 0;
  if (m->in_caller_memory) {
    m->~ember_method();
  } else {
    destroy_heap(m);
  }
}

// Places a new handle: in the caller's arena (then the arena's rest is the method's) or
// on the heap.
Error new_method(ember_program* program, const ember_method_options& o, ember_method** out) {
  if (o.memory == nullptr) {
    *out = new_heap<ember_method>();
    if (*out == nullptr)
      return fail(Error::MemoryAllocationFailed, "cannot allocate a method handle");
    (*out)->program = program;
    return Error::Ok;
  }
  if (reinterpret_cast<uintptr_t>(o.memory) % 16 != 0) {
    return fail(Error::InvalidArgument, "ember_method_options.memory must be 16-byte aligned");
  }
  const size_t head = round_up(sizeof(ember_method));
  if (o.memory_size < head) {
    return fail(Error::MemoryAllocationFailed,
                "caller memory has %zu bytes, the handle alone needs %zu", o.memory_size, head);
  }
  ember_method* m = new (o.memory) ember_method();
  m->program = program;
  m->in_caller_memory = true;
  m->arena_allocator =
      MemoryAllocator(static_cast<uint8_t*>(o.memory) + head, o.memory_size - head);
  *out = m;
  return Error::Ok;
}

// Counts a method against a live `program`, so that destroying the program meanwhile defers
// its free to the last method (handle_registry.h).
Error claim_program(ember_program* program) {
  RegistryLock lock;
  EMBER_TRY(check_handle_locked(program, HandleKind::Program, "program"));
  ++program->live_methods;
  return Error::Ok;
}

// Undoes claim_program; frees the program when it was destroyed and this was its last method.
void release_program(ember_program* program) {
  bool free_it = false;
  {
    RegistryLock lock;
    free_it = --program->live_methods == 0 && program->destroy_pending;
  }
  if (free_it) delete_program(program);
}

Error create_claimed(ember_program* program, const char* name, const ember_method_options* in,
                     ember_method** out) {
  ember_method_options o;
  ember_method_options_init(&o);
  EMBER_TRY(read_options(in, &o, "ember_method_options"));
  ember_method* m = nullptr;
  EMBER_TRY(new_method(program, o, &m));
  Error e = build(m, name, o);
  if (e != Error::Ok) {
    if (m->in_caller_memory && e == Error::MemoryAllocationFailed) {
      runtime::annotate(
          e, "method '%s' in %zu bytes of caller memory (ember_method_memory_size gives the size)",
          name, o.memory_size);
    }
    destroy(m);
    return e;
  }
  if (e = register_handle(m, HandleKind::Method); e != Error::Ok) {
    destroy(m);
    return e;
  }
  *out = m;
  return Error::Ok;
}

Error create(ember_program* program, const char* name, const ember_method_options* in,
             ember_method** out) {
  if (out == nullptr) return fail(Error::InvalidArgument, "method (the output pointer) is NULL");
  *out = nullptr;
  if (name == nullptr) return fail(Error::InvalidArgument, "method name is NULL");
  EMBER_TRY(claim_program(program));
  const Error e = create_claimed(program, name, in, out);
  if (e != Error::Ok) release_program(program);
  return e;
}

// Destroys a live, registered method that no other thread is using: unregistered first.
void destroy_created(ember_method* m) {
  unregister_handle(m, HandleKind::Method);
  ember_program* program = m->program;
  destroy(m);
  release_program(program);
}

// What a caller arena must hold for the method `m` built with runtime-owned memory.
size_t arena_bytes(const ember_method* m) {
  size_t total = round_up(sizeof(ember_method)) + kAlign;
  const runtime::HierarchicalAllocator& planned = m->planned;
  for (size_t i = 0; i < planned.num_buffers(); ++i)
    total += round_up(planned.buffer(i).size()) + kAlign;
  total += round_up(m->temp.capacity()) + kAlign;
  // The grown allocator's bytes, plus the alignment padding its chunk starts hid.
  total += m->growing->used() + kAlign * (m->growing->num_chunks() + 1);
  return total;
}

}  // namespace
}  // namespace ember::capi

using ember::capi::finish;
using ember::capi::to_status;
using ember::runtime::Error;
using ember::runtime::fail;

extern "C" {

// The program's message buffer when it is a live handle (never written through a stale one).
char* program_error(ember_program* program) {
  const bool live = ember::capi::check_handle(program, ember::capi::HandleKind::Program, "program") == Error::Ok;
  ember::runtime::clear_error_message();
  return live ? program->error : nullptr;
}

ember_status ember_method_create(ember_program* program, const char* name,
                                 const ember_method_options* options, ember_method** method) {
  ember::runtime::clear_error_message();
  char* error = program_error(program);
  const Error e = ember::capi::create(program, name, options, method);
  return finish(error, e);
}

// Issue #33: a second destroy, a destroy of something that is not a live method, or a destroy
// while another thread is inside a call on the method is a no-op with a message
// (ember_last_error_message), never a crash.
void ember_method_destroy(ember_method* method) {
  ember::runtime::clear_error_message();
  if (method == nullptr) return;
  {
    ember::capi::RegistryLock lock;
    if (ember::capi::check_handle_locked(method, ember::capi::HandleKind::Method, "method") != Error::Ok) return;
    if (method->busy.exchange(true)) {
      fail(Error::InvalidState, "ember_method_destroy: method %p is in use by another thread; not destroyed",
           static_cast<void*>(method));
      return;
    }
  }
  ember::capi::destroy_created(method);
}

ember_status ember_method_memory_size(ember_program* program, const char* name,
                                      const ember_method_options* options, size_t* bytes) {
  ember::runtime::clear_error_message();
  char* error = program_error(program);
  if (bytes == nullptr) return finish(error, fail(Error::InvalidArgument, "bytes is NULL"));
  *bytes = 0;
  ember_method_options o;
  ember_method_options_init(&o);
  if (Error e = ember::capi::read_options(options, &o, "ember_method_options"); e != Error::Ok) {
    return finish(error, e);
  }
  o.memory = nullptr;  // measure a runtime-owned instance built the same way
  o.memory_size = 0;
  ember_method* m = nullptr;
  if (Error e = ember::capi::create(program, name, &o, &m); e != Error::Ok) return finish(error, e);
  *bytes = ember::capi::arena_bytes(m);
  ember::capi::destroy_created(m);
  return EMBER_OK;
}

}  // extern "C"
