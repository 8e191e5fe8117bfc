// GreedyBySizePlanner ("greedy"): greedy by size, best fit.
//
// Tensors are placed largest first (ties: earlier first_use, then input order, so
// the result is deterministic). For each tensor, the already placed tensors whose
// lifetimes overlap its own are sorted by offset; the holes between them, and the
// open space above the highest of them, are the candidates. The tensor goes into
// the smallest hole that fits (best fit), or above everything when none does.
// Placing big tensors first leaves small holes for small tensors; choosing the
// tightest hole keeps large holes free for later tensors. The cost is
// O(n^2 log n) in the number of tensors, fine for graphs of thousands of nodes.
// It often reaches the lower bound (memory_planner.h) but is not guaranteed to.
#pragma once

#include "aot/planning/memory_planner.h"

namespace ember::aot {

class GreedyBySizePlanner : public MemoryPlanner {
 public:
  const char* name() const override { return "greedy"; }

 protected:
  void assign_offsets(const std::vector<PlanItem>& items, uint64_t alignment,
                      std::vector<uint64_t>* offsets) const override;
};

}  // namespace ember::aot
