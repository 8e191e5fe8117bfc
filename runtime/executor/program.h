// Program: a loaded .pte file. load() reads the header and the FlatBuffer
// through a DataLoader, verifies them (the file is untrusted), and keeps the
// constant segment resident; methods are then described by method_meta() and
// instantiated by load_method() into caller-provided memory.
//
// Ownership: the DataLoader must outlive the Program; the Program must outlive
// (and must not be moved while there are) Methods loaded from it. Loading
// through a BufferDataLoader allocates nothing.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

#include "runtime/backend/backend_registry.h"
#include "runtime/core/data_loader.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/memory_manager.h"
#include "runtime/core/named_data_map.h"
#include "runtime/core/result.h"
#include "runtime/core/thread_pool.h"
#include "runtime/executor/method.h"
#include "runtime/executor/method_meta.h"
#include "runtime/executor/pte_container.h"
#include "runtime/executor/pte_data_map.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// What load_method resolves against. Null members mean the defaults.
struct MethodLoadOptions {
  const KernelRegistry* kernels = nullptr;       // default_kernel_registry()
  const BackendRegistry* backends = nullptr;     // default_backend_registry()
  const NamedDataMap* external_data = nullptr;   // a .ptd map, for EXTERNAL tensors
  ThreadPool* thread_pool = nullptr;             // given to kernels and delegates
};

class Program final {
 public:
  // Minimal (identifier and root offset only, for trusted data) or
  // InternalConsistency (the FlatBuffers verifier, the default); pte_container.h.
  using Verification = PteVerification;

  enum class HeaderStatus : uint8_t { CompatibleVersion, IncompatibleVersion, NotPresent, ShortData };

  // Loads and verifies a program. Errors: InvalidProgram (bad identifier,
  // header, offsets, FlatBuffer), InvalidArgument (misaligned data),
  // AccessFailed and others from the loader.
  static Result<Program> load(DataLoader* loader,
                              Verification verification = Verification::InternalConsistency);

  // Classifies the first bytes of a file without loading it.
  static HeaderStatus check_header(const void* data, size_t size);

  size_t num_methods() const;
  // The name of method i (file order), or InvalidArgument.
  Result<const char*> get_method_name(size_t i) const;
  // NotFound when there is no method called `name`.
  Result<MethodMeta> method_meta(const char* name) const;

  // Instantiates method `name` in `memory` (see MemoryManager); errors name the
  // method and what is wrong (missing operator or backend, bad index, memory
  // too small, ...). Never allocates from the heap.
  Result<Method> load_method(const char* name, MemoryManager* memory,
                             const MethodLoadOptions& options = {}) const;

  // Constant tensor data for data_buffer_idx `index`, checked to hold `nbytes`.
  Result<const void*> get_constant_data(size_t index, size_t nbytes) const;

  // Bytes of segment `index` (absolute offset segment_base + segment.offset).
  Result<FreeableBuffer> load_segment(size_t index, const SegmentInfo& info) const;
  // Copies `size` bytes at `offset` inside segment `index` into `buffer`.
  Error load_segment_into(size_t index, size_t offset, size_t size, void* buffer) const;

  // The program's own named data (may have 0 keys).
  const NamedDataMap& named_data_map() const { return named_data_; }

  // The verified FlatBuffer root (an executorch_flatbuffer::Program); for the
  // executor's own sources only.
  const void* flatbuffer_root() const { return container_.program_root(); }
  // The file's container: header, layout, segment ranges, named-data keys.
  const PteContainer& container() const { return container_; }

  Program(Program&&) = default;
  Program& operator=(Program&&) = delete;
  Program(const Program&) = delete;

 private:
  Program() = default;
  Error load_constants();

  DataLoader* loader_ = nullptr;
  FreeableBuffer program_data_;
  FreeableBuffer constant_segment_;
  PteContainer container_;  // points into program_data_
  PteDataMap named_data_;
};

}  // namespace ember::runtime
