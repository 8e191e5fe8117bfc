// Module: the convenience facade. Loads a .pte from a file (mmap or read) or
// from bytes, and runs a method in a few lines:
//
//   ember::runtime::Module module("model.pte");
//   auto outputs = module.execute("forward", {EValue(&input_tensor)});
//
// Unlike the core runtime, Module allocates: it owns the loader, the program,
// and per method the planned buffers sized from MethodMeta, a method allocator
// that takes heap chunks as the load asks for them (growing_memory_allocator.h;
// a method is loaded exactly once, never retried) and a temp allocator.
// Registries default to the process-wide ones. Not thread-safe; use one Module
// per thread, or share the Program and load a Method per thread with the core API.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "runtime/core/data_loader.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/executor/program.h"
#include "runtime/executor/memory_budget.h"

namespace ember::runtime {

class Module final {
 public:
  enum class LoadMode { File, Mmap };

  struct Options {
    MethodLoadOptions method;  // registries, external data (.ptd), thread pool
    Program::Verification verification = Program::Verification::InternalConsistency;
    size_t temp_allocator_bytes = size_t(16) << 20;
    // Cap on a method allocator's heap chunks: a load that needs more fails
    // with MemoryAllocationFailed (it bounds what a hostile file can claim).
    size_t max_method_allocator_bytes = size_t(1) << 30;
    // Cap on the sum of a method's planned buffers, checked (check_planned_memory) before any
    // is reserved: a 728-byte .pte asked for 15 GB (issue #33). Over it, load_method is
    // MemoryAllocationFailed naming the method, the total, the largest buffer and the budget.
    uint64_t max_planned_memory_bytes = kDefaultPlannedMemoryBudget;
  };

  explicit Module(std::string path, LoadMode mode = LoadMode::Mmap);
  // With an external data file (.ptd) for EXTERNAL tensors and delegates.
  Module(std::string path, std::string data_path, LoadMode mode = LoadMode::Mmap);
  // Copies `size` bytes at `data` into aligned storage the Module owns.
  Module(const void* data, size_t size);
  ~Module();
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  void set_options(const Options& options) { options_ = options; }
  // Uses the .ptd at `path` (loaded by load()); for modules made from bytes.
  void set_data_path(std::string path) { data_path_ = std::move(path); }
  const Options& options() const { return options_; }

  // Loads and verifies the program (idempotent).
  Error load();
  bool is_loaded() const { return program_ != nullptr; }
  // The loaded program (load() first).
  const Program& program() const { return *program_; }

  // The program's methods in file order, without the __ember_guards__* metadata methods.
  Result<std::vector<std::string>> method_names();
  Result<MethodMeta> method_meta(const std::string& name);

  // Loads `name` once (later calls return the same Method). A failed load is
  // not retried: its error and message are the runtime's own.
  Result<Method*> load_method(const std::string& name);
  bool is_method_loaded(const std::string& name) const { return methods_.count(name) != 0; }
  void unload_method(const std::string& name);

  // set_input for each input, execute(), and the outputs (aliasing the method's memory).
  Result<std::vector<EValue>> execute(const std::string& name, const std::vector<EValue>& inputs);
  Result<std::vector<EValue>> forward(const std::vector<EValue>& inputs) {
    return execute("forward", inputs);
  }

  // Bytes of the method allocator the loaded method used (for tools).
  size_t method_allocator_used(const std::string& name) const;

  // Loads a further instance of method `name` over the same program, with its own planned
  // buffers (so its own mutable buffers: a second conversation's KV cache), method allocator
  // and temp allocator; the constants and the file are shared. The Module owns it until
  // unload_method_instance() or its destruction. Loading and unloading instances are not
  // thread-safe, but different instances may execute on different threads at once.
  Result<Method*> load_method_instance(const std::string& name);
  void unload_method_instance(const Method* method);

  // A method's state between execute() calls as byte ranges the caller may read or overwrite
  // (saving and restoring a conversation): each mutable buffer (MethodMeta::is_mutable_buffer),
  // in value order, or, when the program marks none (upstream programs without buffer names),
  // each planned buffer whole. `method` is one this Module loaded (load_method or an instance).
  struct StateRange {
    enum class Kind : uint8_t { MutableBuffer = 1, PlannedBuffer = 2 };
    Kind kind;
    uint32_t index;  // the value index, or the planned buffer's 0-based index
    Span<uint8_t> bytes;
  };
  Result<std::vector<StateRange>> method_state(const Method& method) const;

 private:
  struct LoadedMethod;

  Result<std::unique_ptr<LoadedMethod>> new_method(const std::string& name);
  const LoadedMethod* find_loaded(const Method& method) const;

  Error load_data_map();

  std::string path_;
  std::string data_path_;
  std::unique_ptr<DataLoader> data_loader_;
  std::unique_ptr<NamedDataMap> data_map_;
  LoadMode mode_ = LoadMode::Mmap;
  std::unique_ptr<uint8_t[], void (*)(uint8_t*)> bytes_;
  size_t bytes_size_ = 0;
  std::unique_ptr<DataLoader> loader_;
  std::unique_ptr<Program> program_;
  Options options_;
  std::map<std::string, std::unique_ptr<LoadedMethod>> methods_;
  std::vector<std::unique_ptr<LoadedMethod>> instances_;
};

}  // namespace ember::runtime
