// MemoryPlanningPass (executorch dialect): gives every non-constant tensor a place in the
// planned arena (TensorSpec::mem_id / mem_offset, 1-based buffer id as in the .pte).
//
// Before: %add : f32[2, 2]                 (lifetime_begin/end, mem_id = -1)
// After:  %add : f32[2, 2] lifetime [3, 5], mem_id 1, mem_offset 64
// Lifetimes come from the schedule (node order): a value lives from the node that defines
// it (graph inputs: 0) to its last use; graph outputs, mutable buffers and the new values
// of mutated buffers live to the end (the emitter writes buffers back after the last node).
// Tensors with symbolic dims are planned at their upper bound (range max; an unbounded dim
// is NotSupported). Sizes and offsets are aligned to 16 bytes, as upstream. The algorithm
// is a MemoryPlanner picked by name from the registry (aot/planning; default "greedy");
// arena size and the lower bound (largest sum of simultaneously live tensors) go to the
// optional report.
#pragma once

#include <cstdint>
#include <string>

#include "aot/passes/pass.h"

namespace ember::aot {

struct MemoryPlanReport {
  std::string planner;
  uint64_t arena_size = 0;
  uint64_t lower_bound = 0;
  size_t planned_tensors = 0;
  // arena / lower bound (1.0 when both are 0).
  double ratio() const {
    return lower_bound == 0 ? 1.0 : static_cast<double>(arena_size) / static_cast<double>(lower_bound);
  }
};

class MemoryPlanningPass final : public Pass {
 public:
  // `report` (optional, caller-owned) receives the result of each run.
  explicit MemoryPlanningPass(std::string planner = "greedy", MemoryPlanReport* report = nullptr)
      : planner_(std::move(planner)), report_(report) {}
  const char* name() const override { return "memory_planning"; }
  Error run(Graph& graph) const override;

 private:
  std::string planner_;
  MemoryPlanReport* report_;
};

// Upper-bound byte size of a tensor spec (symbolic dims at their range max), -1 if unbounded.
int64_t upper_bound_nbytes(const TensorSpec& spec);

// Graph input values that are buffers written by the program (BUFFER_MUTATION outputs), and
// for each the value written back, in signature order.
std::vector<std::pair<ValueId, ValueId>> mutated_buffers(const Graph& graph);

}  // namespace ember::aot
