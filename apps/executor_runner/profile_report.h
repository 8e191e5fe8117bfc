// executor_runner's profile output, kept out of executor_runner.cc: the per-instruction
// table (--profile; with --debug FILE.ptdbg every row names its node, ATen op and source
// line, and a delegate call lists the nodes inside it), the per-op-type summary (--summary,
// like TFLite benchmark_model's) and the trace-event timeline (--trace). Everything reads
// the InstructionProfile array execute() filled; nothing runs inside execute().
#pragma once

#include <cstdint>
#include <map>
#include <utility>
#include <vector>

#include "runtime/backend/backend_interface.h"
#include "runtime/executor/method.h"
#include "apps/diagnostics/debug_info.h"
#include "apps/diagnostics/trace_writer.h"

namespace ember::runtime {

// Per-operator times reported from inside delegates (DelegateProfiler). Events go into a
// buffer sized at construction (record() never allocates; past capacity they are counted as
// dropped); fold() adds them to per-(instruction, operator) totals and empties the buffer,
// between executions.
class DelegateOpRecorder final : public DelegateProfiler {
 public:
  struct Event {
    size_t instruction;
    uint32_t op;
    const char* name;
    uint64_t start_ns, end_ns;
  };
  struct Total {
    const char* name = "";
    uint64_t calls = 0, total_ns = 0;
  };

  explicit DelegateOpRecorder(size_t capacity = size_t{1} << 16) : events_(capacity) {}
  void record(size_t instruction, uint32_t op, const char* name, uint64_t start_ns, uint64_t end_ns) override {
    if (size_ == events_.size()) {
      ++dropped_;
      return;
    }
    events_[size_++] = {instruction, op, name, start_ns, end_ns};
  }
  // The events since the last fold().
  const Event* begin() const { return events_.data(); }
  const Event* end() const { return events_.data() + size_; }
  void fold();
  const std::map<std::pair<size_t, uint32_t>, Total>& totals() const { return totals_; }
  uint64_t dropped() const { return dropped_; }

 private:
  std::vector<Event> events_;
  size_t size_ = 0;
  uint64_t dropped_ = 0;
  std::map<std::pair<size_t, uint32_t>, Total> totals_;
};

// `debug` may be null (rows then name the kernel only); `ops` may be null (no inner times).
// A backend's operator k is taken to be the k-th node of its delegate call (what the demo
// backend's bytecode is); operators past the node list are listed by their own name.
void print_profile(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug, const DelegateOpRecorder* ops = nullptr);

// Time per op type ("aten::convolution"; the kernel name without --debug), most first.
void print_summary(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug);

// Adds one execution to `trace`: an "execute" event from start_ns to end_ns and, nested in
// it, one event per instruction that ran (its calls went up from `calls_before`), named by
// provenance when `debug` is given, with the delegated nodes in the args of a delegate call,
// and the operator events `ops` recorded (since its last fold()) nested in their call.
void trace_execution(TraceWriter* trace, const Method& method, const std::vector<InstructionProfile>& profile,
                     const std::vector<uint64_t>& calls_before, const DebugInfo* debug, int run,
                     uint64_t start_ns, uint64_t end_ns, const DelegateOpRecorder* ops = nullptr);

}  // namespace ember::runtime
