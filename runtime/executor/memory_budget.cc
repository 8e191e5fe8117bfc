// check_planned_memory (see memory_budget.h).
#include "runtime/executor/memory_budget.h"

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Result<PlannedMemory> check_planned_memory(const MethodMeta& meta, uint64_t budget_bytes) {
  PlannedMemory plan;
  plan.num_buffers = meta.num_memory_planned_buffers();
  size_t largest = 0;
  bool overflow = false;
  for (size_t i = 0; i < plan.num_buffers; ++i) {
    Result<int64_t> size = meta.memory_planned_buffer_size(i);
    if (!size.ok()) return annotate(size.error(), "method '%s'", meta.name());
    const uint64_t bytes = static_cast<uint64_t>(*size);
    if (bytes > plan.largest_bytes) {
      plan.largest_bytes = bytes;
      largest = i;
    }
    overflow = overflow || __builtin_add_overflow(plan.total_bytes, bytes, &plan.total_bytes);
  }
  if (overflow) {
    return fail(Error::MemoryAllocationFailed,
                "method '%s': its %zu planned buffers add up to more than 2^64 bytes (buffer %zu "
                "alone is %llu bytes); the program is corrupt",
                meta.name(), plan.num_buffers, largest,
                static_cast<unsigned long long>(plan.largest_bytes));
  }
  if (plan.total_bytes > budget_bytes) {
    return fail(Error::MemoryAllocationFailed,
                "method '%s' plans %llu bytes in %zu buffer(s) (buffer %zu: %llu bytes), over the "
                "planned-memory budget of %llu bytes; if the program is trusted, raise the budget",
                meta.name(), static_cast<unsigned long long>(plan.total_bytes), plan.num_buffers,
                largest, static_cast<unsigned long long>(plan.largest_bytes),
                static_cast<unsigned long long>(budget_bytes));
  }
  return plan;
}

}  // namespace ember::runtime
