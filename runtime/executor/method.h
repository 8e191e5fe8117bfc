// Method: one loaded method of a Program, ready to run. Everything it built at
// load time (value table, tensors, argument lists, resolved kernels, delegate
// handles) lives in the caller's method allocator; tensors use the caller's
// planned buffers; kernels get the temp allocator, reset after every
// instruction. Nothing here allocates from the heap.
//
// Use: set_input() for every input, execute(), then get_output(). Inputs that
// are memory-planned are copied in; unplanned ones share the caller's pointer
// (which must stay valid through execute()). A Method is movable, not
// copyable, and not thread-safe; run different Methods on different threads.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/executor/input_guards.h"
#include "runtime/executor/method_meta.h"

namespace ember::runtime {

class DelegateProfiler;  // runtime/backend/backend_interface.h

namespace internal {
struct MethodState;
}  // namespace internal

// Per-instruction timing, filled by execute() when profiling is enabled.
// last_start_ns / last_end_ns (ember_pal_now_ns() clock) are the instruction's most
// recent run, for timelines (executor_runner --trace); an instruction a loop runs several
// times in one execute() keeps only its last run there, its calls and total_ns count all.
struct InstructionProfile {
  uint64_t calls = 0;
  uint64_t total_ns = 0;
  uint64_t last_start_ns = 0;
  uint64_t last_end_ns = 0;
};

// Called by execute() after every instruction that ran without error, before the next one
// (executor_runner --dump_intermediates writes outputs from here). `args` are the
// instruction's arguments (kernel and delegate calls; empty for move, jump_false and free):
// a kernel's outputs are its last argument (a tensor, or a tensor list for several
// outputs), a delegate call's are its last ones. Anything the observer does is on the
// execute path: a null observer (the default) costs nothing.
class InstructionObserver {
 public:
  virtual ~InstructionObserver() = default;
  virtual void after_instruction(size_t instruction, Span<EValue* const> args) = 0;
};

class Method final {
 public:
  Method(Method&& other) noexcept : state_(other.state_) { other.state_ = nullptr; }
  Method& operator=(Method&&) = delete;
  Method(const Method&) = delete;
  ~Method();

  const char* name() const;
  MethodMeta method_meta() const;
  size_t inputs_size() const;
  size_t outputs_size() const;

  // Sets input i. Tensor: same dtype, rank and dim order, sizes within the
  // declared bounds and at least the MinSize guards (a dynamic input is resized). Int/Bool/String must equal
  // the exported value, Double within 1e-4 + 1e-5*|v|. None: no-op.
  Error set_input(const EValue& value, size_t i);
  Error set_inputs(Span<const EValue> values);

  // Points output i (an unplanned tensor) at the caller's `buffer` of `size` bytes.
  // InvalidState for planned or constant outputs.
  Error set_output_data_ptr(void* buffer, size_t size, size_t i);

  // Checks the EqualSize guards, then runs every instruction. Errors name the
  // failing guard, or instruction and operator.
  Error execute();

  // The current value of input i (the exported value until set_input).
  const EValue& get_input(size_t i) const;

  // Output i (aliases the method's storage; valid until the next execute()).
  const EValue& get_output(size_t i) const;
  Error get_outputs(EValue* out, size_t count) const;

  // The value table (for tools and tests).
  size_t num_values() const;
  const EValue& get_value(size_t i) const;

  // The bytes of value `value_index` when it is a mutable buffer (MethodMeta::is_mutable_buffer:
  // state kept between execute() calls, e.g. a KV cache), at its declared size; the caller may
  // read them or overwrite them between execute() calls (saving and restoring a conversation).
  // InvalidArgument for any other value.
  Result<Span<uint8_t>> mutable_buffer(size_t value_index) const;

  // The input guards read from __ember_guards__<name> (empty without one).
  Span<const InputGuard> input_guards() const;

  // Instructions, in execution order, with a printable name each
  // ("aten::add.out", a backend id such as "XnnpackBackend", "move", "jump_false", "free").
  size_t num_instructions() const;
  const char* instruction_name(size_t i) const;

  // Accumulates per-instruction timings into `profile` (num_instructions()
  // entries) during execute(); null turns profiling off.
  void set_profile(InstructionProfile* profile);
  // Backends that time their operators report them to `profiler` during execute(); null
  // (the default) turns it off. The profiler outlives the calls it is set for.
  void set_delegate_profiler(DelegateProfiler* profiler);
  // Calls `observer` after every instruction during execute(); null (the default) turns it
  // off. The observer outlives the calls it is set for.
  void set_instruction_observer(InstructionObserver* observer);

 private:
  friend class Program;
  explicit Method(internal::MethodState* state) : state_(state) {}

  internal::MethodState* state_;
};

}  // namespace ember::runtime
