// NaivePlanner ("naive"): every planned tensor gets its own bytes, one after the
// other in input order, with no reuse. The arena is the sum of the aligned sizes.
// It is the baseline the other planners are compared with, and a safe fallback
// when debugging a suspected aliasing problem.
#pragma once

#include "aot/planning/memory_planner.h"

namespace ember::aot {

class NaivePlanner : public MemoryPlanner {
 public:
  const char* name() const override { return "naive"; }

 protected:
  void assign_offsets(const std::vector<PlanItem>& items, uint64_t alignment,
                      std::vector<uint64_t>* offsets) const override;
};

}  // namespace ember::aot
