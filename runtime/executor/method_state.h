// Private to runtime/executor: what a loaded Method consists of, all of it in
// the method allocator, and the load steps that build it (values, delegates,
// instructions), each in its own source file. Includes the schema, so only
// this package's .cc files include it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/backend/backend_interface.h"
#include "runtime/core/evalue.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/freeable_buffer.h"
#include "runtime/core/memory_manager.h"
#include "runtime/executor/flatbuffer_access.h"
#include "runtime/executor/input_guards.h"
#include "runtime/executor/method.h"
#include "runtime/executor/program.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime::internal {

enum class InstructionKind : uint8_t { Kernel, Delegate, Move, JumpFalse, Free };

// One instruction, resolved at load so that execute() only dispatches.
struct PreparedInstruction {
  OpFunction function = nullptr;  // Kernel
  EValue** args = nullptr;        // Kernel and Delegate
  uint32_t num_args = 0;
  InstructionKind kind = InstructionKind::Kernel;
  int32_t a = 0;  // Delegate: delegate index; Move: from; JumpFalse: cond; Free: value
  int32_t b = 0;  // Move: to; JumpFalse: destination (chain-relative)
  const char* name = "";
};

struct DelegateRecord {
  const BackendInterface* backend = nullptr;
  DelegateHandle* handle = nullptr;
  FreeableBuffer processed;
  const char* id = "";
  bool initialized = false;
};

struct MethodState {
  const fb::ExecutionPlan* plan = nullptr;
  const char* name = "";
  MemoryAllocator* temp_allocator = nullptr;
  ThreadPool* thread_pool = nullptr;

  EValue* values = nullptr;
  size_t num_values = 0;
  PreparedInstruction* instructions = nullptr;
  size_t num_instructions = 0;
  uint32_t* chain_starts = nullptr;  // chain c spans [chain_starts[c], chain_starts[c + 1])
  size_t num_chains = 0;
  DelegateRecord* delegates = nullptr;
  size_t num_delegates = 0;
  FreeableBuffer* external_buffers = nullptr;  // EXTERNAL constants kept alive
  size_t num_external_buffers = 0;
  const NamedDataMap* named_data = nullptr;    // program + external, for delegates

  const int32_t* inputs = nullptr;  // value indices (validated)
  size_t num_inputs = 0;
  const int32_t* outputs = nullptr;
  size_t num_outputs = 0;
  bool* input_set = nullptr;
  bool* input_fresh = nullptr;    // set since the last execute (derived-size guards at set_input)
  bool* input_planned = nullptr;  // input data lives in planned memory: set_input copies
  InputGuard* guards = nullptr;   // from __ember_guards__<name>, validated (input_guards.cc)
  size_t num_guards = 0;
  InstructionProfile* profile = nullptr;
  DelegateProfiler* delegate_profiler = nullptr;  // per-operator times inside delegates
  InstructionObserver* observer = nullptr;        // called between instructions
};

// Everything a load step needs.
struct LoadContext {
  const Program& program;
  const fb::ExecutionPlan* plan;
  MemoryManager* memory;
  const KernelRegistry* kernels;
  const BackendRegistry* backends;
  const NamedDataMap* external_data;
  MethodState* state;
};

// value_parser.cc: builds state->values (and tensors through tensor_parser.cc).
Error parse_values(LoadContext& ctx);
// tensor_parser.cc: builds the Tensor of value `index` into `*out`.
Error parse_tensor(LoadContext& ctx, size_t index, const fb::Tensor* t, Tensor** out,
                   size_t* external_slot);
// delegate_loader.cc: resolves and initialises every BackendDelegate.
Error init_delegates(LoadContext& ctx);
// instruction_resolver.cc: builds state->instructions, resolving kernels.
Error resolve_instructions(LoadContext& ctx);
// input_guards.cc: reads __ember_guards__<method> into state->guards (after parse_values).
Error load_input_guards(LoadContext& ctx);
// The MinSize guard of (input, dim), 0 when there is none.
int32_t guard_min(const MethodState* s, size_t input, size_t dim);
// Checks every EqualSize and DerivedSize guard against the inputs' current sizes.
Error check_equal_guards(const MethodState* s);
// Checks the DerivedSize guards that involve `input` and whose other input was set since the
// last execute (set_input).
Error check_derived_guards_of(const MethodState* s, size_t input);
// When a SymbolBound guard names a value among `in`'s arguments, prefixes the error message
// with the data-dependent symbol and its planned bound; returns `err`.
Error name_symbol_bound(const MethodState* s, const PreparedInstruction& in, Error err);

// Allocates `count` T from the method allocator, default-constructed, or fails
// with MemoryAllocationFailed naming `what`.
template <typename T>
Error allocate_array(MemoryAllocator* allocator, size_t count, const char* what, T** out) {
  *out = nullptr;
  if (count == 0) return Error::Ok;
  T* p = allocator->allocate_list<T>(count);
  if (p == nullptr) {
    return fail(Error::MemoryAllocationFailed,
                "method allocator exhausted allocating %zu %s (%zu of %zu bytes used)", count,
                what, allocator->used(), allocator->capacity());
  }
  for (size_t i = 0; i < count; ++i) new (&p[i]) T();
  *out = p;
  return Error::Ok;
}

}  // namespace ember::runtime::internal
