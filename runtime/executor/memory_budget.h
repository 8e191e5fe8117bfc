// The planned-memory budget: how much memory a program may make its host reserve.
//
// A .pte names the sizes of its planned buffers (non_const_buffer_sizes) and the host
// reserves them before load_method; the file is untrusted, so a 728-byte program can ask
// for 15 GB (issue #33). check_planned_memory() sums a method's planned buffers
// (overflow-checked) and refuses a total over the budget with MemoryAllocationFailed naming
// the method, the total, the largest buffer and the budget, before anything is reserved.
// Hosts that reserve planned buffers themselves (executor_runner, Module, the C API) call it
// first with their budget: kDefaultPlannedMemoryBudget unless the user configures another.
// Allocation-free, like the rest of the runtime.
#pragma once

#include <cstdint>

#include "runtime/core/result.h"
#include "runtime/executor/method_meta.h"

namespace ember::runtime {

// 8 GiB: above every plan in the fixture corpus and the LLM examples (the largest plans a
// few hundred MiB), below what a tool should reserve on the word of an untrusted file.
constexpr uint64_t kDefaultPlannedMemoryBudget = uint64_t{8} << 30;

struct PlannedMemory {
  uint64_t total_bytes = 0;    // sum of every planned buffer
  uint64_t largest_bytes = 0;  // the largest single buffer
  size_t num_buffers = 0;
};

// The planned memory of `meta`'s method if it fits in `budget_bytes`; MemoryAllocationFailed
// if it does not (or the sum overflows), InvalidProgram for a negative buffer size.
Result<PlannedMemory> check_planned_memory(const MethodMeta& meta,
                                           uint64_t budget_bytes = kDefaultPlannedMemoryBudget);

}  // namespace ember::runtime
