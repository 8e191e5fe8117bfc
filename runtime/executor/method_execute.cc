// Method::execute: the instruction loop (pte-format.md 3.7). Everything was
// checked at load, so each step only dispatches; the temp allocator is reset
// after every instruction that used it and a step limit stops runaway jump loops.
#include "runtime/executor/method_state.h"
#include "runtime/platform/log.h"

namespace ember::runtime {

using namespace internal;  // NOLINT

namespace {

constexpr uint64_t kMaxSteps = 10000000;

Result<bool> condition_value(const EValue& cond) {
  if (cond.is_bool()) return cond.to_bool();
  const Tensor& t = cond.to_tensor();
  const bool* data = t.const_data_ptr<bool>();
  if (data == nullptr && t.numel() > 0) return fail(Error::InvalidState, "jump condition tensor has no data");
  for (size_t i = 0; i < t.numel(); ++i) {
    if (!data[i]) return false;
  }
  return true;
}

Error run_one(MethodState* s, const PreparedInstruction& in, size_t* pc, size_t chain_begin) {
  switch (in.kind) {
    case InstructionKind::Kernel: {
      KernelRuntimeContext context(s->temp_allocator, s->thread_pool);
      in.function(context, Span<EValue*>(in.args, in.num_args));
      return context.failure_state();
    }
    case InstructionKind::Delegate: {
      const DelegateRecord& d = s->delegates[in.a];
      BackendExecutionContext context(s->temp_allocator, s->name, s->thread_pool);
      if (s->delegate_profiler != nullptr) context.set_profiler(s->delegate_profiler, *pc);
      return d.backend->execute(context, d.handle, Span<EValue*>(in.args, in.num_args));
    }
    case InstructionKind::Move:
      s->values[in.b] = s->values[in.a];
      return Error::Ok;
    case InstructionKind::JumpFalse: {
      Result<bool> cond = condition_value(s->values[in.a]);
      if (!cond.ok()) return cond.error();
      if (!*cond) *pc = chain_begin + size_t(in.b) - 1;  // the loop adds 1
      return Error::Ok;
    }
    case InstructionKind::Free:
      s->values[in.a].to_tensor().set_data(nullptr);
      return Error::Ok;
  }
  return Error::Internal;
}

}  // namespace

Error Method::execute() {
  MethodState* s = state_;
  for (size_t i = 0; i < s->num_inputs; ++i) {
    if (!s->input_set[i]) {
      return fail(Error::InvalidArgument, "input %zu of method '%s' was not set", i, s->name);
    }
  }
  EMBER_TRY(check_equal_guards(s));  // needs every input, so here rather than in set_input
  for (size_t i = 0; i < s->num_inputs; ++i) s->input_fresh[i] = false;
  if (s->temp_allocator != nullptr) s->temp_allocator->reset();
  clear_error_message();  // a kernel may fail without recording why
  // Steps are counted at taken jumps (a straight run is bounded by its chain's length), so the
  // common step pays no counter.
  uint64_t steps = 0;
  // Locals, not s->...: kernels are opaque calls, so fields would be reloaded every step.
  InstructionProfile* const profile = s->profile;
  InstructionObserver* const observer = s->observer;
  // One test per step for both hooks: the kernel fast path is taken when neither is set.
  const bool hooked = profile != nullptr || observer != nullptr;
  MemoryAllocator* const temp = s->temp_allocator;
  ThreadPool* const pool = s->thread_pool;
  const PreparedInstruction* const instructions = s->instructions;
  for (size_t c = 0; c < s->num_chains; ++c) {
    const size_t begin = s->chain_starts[c], end = s->chain_starts[c + 1];
    size_t run_start = begin;  // first instruction of the current straight run
    for (size_t pc = begin; pc < end; ++pc) {
      const PreparedInstruction& in = instructions[pc];
      const size_t at = pc;
      Error err;
      if (!hooked && in.kind == InstructionKind::Kernel) {  // the common step
        KernelRuntimeContext context(temp, pool);
        in.function(context, Span<EValue*>(in.args, in.num_args));
        err = context.failure_state();
        if (context.temp_used()) temp->reset();  // only kernels that took scratch
      } else {
        const uint64_t start = profile != nullptr ? ember_pal_now_ns() : 0;
        err = run_one(s, in, &pc, begin);
        if (profile != nullptr) {
          const uint64_t end_ns = ember_pal_now_ns();
          InstructionProfile& p = profile[at];
          p.calls += 1;
          p.total_ns += end_ns - start;
          p.last_start_ns = start;
          p.last_end_ns = end_ns;
        }
        // Inside the hooked branch, so the fast path above never tests it.
        if (observer != nullptr && err == Error::Ok) {
          observer->after_instruction(at, Span<EValue* const>(in.args, in.num_args));
        }
        if (temp != nullptr) temp->reset();
        if (pc != at) {  // a taken jump: count the run it ends
          steps += at - run_start + 1;
          if (steps > kMaxSteps) {
            return fail(Error::InvalidProgram,
                        "method '%s' exceeded %llu steps at the jump of instruction %zu (jump loop? a "
                        "while_loop that never ends)",
                        s->name, static_cast<unsigned long long>(kMaxSteps), at);
          }
          run_start = pc + 1;
        }
      }
      if (err != Error::Ok) {
        if (last_error_message()[0] == '\0') fail(err, "%s", error_meaning(err));
        if (s->num_guards != 0 && in.num_args != 0) name_symbol_bound(s, in, err);
        return annotate(err, "method '%s' instruction %zu (%s)", s->name, at, in.name);
      }
    }
  }
  return Error::Ok;
}

}  // namespace ember::runtime
