// Bump placement with no reuse (see naive_planner.h).
#include "aot/planning/naive_planner.h"

namespace ember::aot {

void NaivePlanner::assign_offsets(const std::vector<PlanItem>& items, uint64_t /*alignment*/,
                                 std::vector<uint64_t>* offsets) const {
  uint64_t next = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    (*offsets)[i] = next;
    next += items[i].size;
  }
}

}  // namespace ember::aot
