// executor_runner's profile output, kept out of executor_runner.cc: the per-instruction
// table (--profile; with --debug FILE.ptdbg every row names its node, ATen op and source
// line, and a delegate call lists the nodes inside it), the per-op-type summary (--summary,
// like TFLite benchmark_model's) and the trace-event timeline (--trace). Everything reads
// the InstructionProfile array execute() filled; nothing runs inside execute().
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/executor/method.h"
#include "runtime/tools/debug_info.h"
#include "runtime/tools/trace_writer.h"

namespace ember::runtime {

// `debug` may be null (rows then name the kernel only).
void print_profile(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug);

// Time per op type ("aten::convolution"; the kernel name without --debug), most first.
void print_summary(const Method& method, const std::vector<InstructionProfile>& profile,
                   const DebugInfo* debug);

// Adds one execution to `trace`: an "execute" event from start_ns to end_ns and, nested in
// it, one event per instruction that ran (its calls went up from `calls_before`), named by
// provenance when `debug` is given, with the delegated nodes in the args of a delegate call.
void trace_execution(TraceWriter* trace, const Method& method, const std::vector<InstructionProfile>& profile,
                     const std::vector<uint64_t>& calls_before, const DebugInfo* debug, int run,
                     uint64_t start_ns, uint64_t end_ns);

}  // namespace ember::runtime
