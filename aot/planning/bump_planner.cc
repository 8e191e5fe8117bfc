// Bump placement with no reuse (see bump_planner.h).
#include "aot/planning/bump_planner.h"

namespace ember::aot {

void BumpPlanner::assign_offsets(const std::vector<PlanItem>& items, uint64_t /*alignment*/,
                                 std::vector<uint64_t>* offsets) const {
  uint64_t next = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    (*offsets)[i] = next;
    next += items[i].size;
  }
}

}  // namespace ember::aot
