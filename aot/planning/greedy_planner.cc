// Greedy-by-size best-fit placement (algorithm in greedy_planner.h).
#include "aot/planning/greedy_planner.h"

#include <algorithm>
#include <numeric>
#include <utility>

namespace ember::aot {

void GreedyBySizePlanner::assign_offsets(const std::vector<PlanItem>& items, uint64_t /*alignment*/,
                                         std::vector<uint64_t>* offsets) const {
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (items[a].size != items[b].size) return items[a].size > items[b].size;
    return items[a].first_use < items[b].first_use;
  });
  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> busy;  // [begin, end) of conflicting tensors
  for (size_t idx : order) {
    const PlanItem& item = items[idx];
    busy.clear();
    for (size_t other : placed) {
      if (lifetimes_overlap(item, items[other])) {
        busy.emplace_back((*offsets)[other], (*offsets)[other] + items[other].size);
      }
    }
    std::sort(busy.begin(), busy.end());
    uint64_t cursor = 0;
    bool found = false;
    uint64_t best_offset = 0, best_gap = 0;
    for (const auto& [begin, end] : busy) {
      if (begin > cursor) {
        uint64_t gap = begin - cursor;
        if (gap >= item.size && (!found || gap < best_gap)) {
          found = true;
          best_gap = gap;
          best_offset = cursor;
        }
      }
      cursor = std::max(cursor, end);
    }
    (*offsets)[idx] = found ? best_offset : cursor;
    placed.push_back(idx);
  }
}

}  // namespace ember::aot
