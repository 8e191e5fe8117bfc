// The common part of every planner (see memory_planner.h): validation,
// filtering, alignment, lower bound and result assembly.
#include "aot/planning/memory_planner.h"

#include <algorithm>
#include <map>
#include <string>

namespace ember::aot {

uint64_t live_size_lower_bound(const std::vector<PlanItem>& items) {
  // Sweep: +size at first_use, -size just after last_use.
  std::map<int64_t, int64_t> delta;
  for (const PlanItem& item : items) {
    delta[item.first_use] += static_cast<int64_t>(item.size);
    delta[int64_t{item.last_use} + 1] -= static_cast<int64_t>(item.size);
  }
  int64_t live = 0, best = 0;
  for (const auto& [time, change] : delta) {
    live += change;
    best = std::max(best, live);
  }
  return static_cast<uint64_t>(best);
}

StatusOr<MemoryPlan> MemoryPlanner::plan(const std::vector<PlanTensor>& tensors,
                                         const PlanOptions& options) const {
  const uint64_t alignment = options.alignment;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return invalid_argument("memory planner " + std::string(name()) + ": alignment " +
                            std::to_string(alignment) + " is not a power of two");
  }
  std::vector<PlanItem> items;
  std::vector<size_t> item_tensor;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const PlanTensor& t = tensors[i];
    if (t.last_use < t.first_use) {
      return invalid_argument("memory planner " + std::string(name()) + ": tensor " +
                              std::to_string(i) + " has last_use " + std::to_string(t.last_use) +
                              " before first_use " + std::to_string(t.first_use));
    }
    if (t.size_bytes > (uint64_t{1} << 60)) {
      return invalid_argument("tensor " + std::to_string(i) + " has an implausible size " +
                              std::to_string(t.size_bytes));
    }
    if ((t.is_input && !options.plan_inputs) || (t.is_output && !options.plan_outputs)) continue;
    uint64_t size = (t.size_bytes + alignment - 1) / alignment * alignment;
    items.push_back({size, t.first_use, t.last_use});
    item_tensor.push_back(i);
  }
  std::vector<uint64_t> offsets(items.size(), 0);
  assign_offsets(items, alignment, &offsets);

  MemoryPlan result;
  result.placements.resize(tensors.size());
  for (size_t k = 0; k < items.size(); ++k) {
    result.placements[item_tensor[k]] = {true, 1, offsets[k]};
    result.arena_size = std::max(result.arena_size, offsets[k] + items[k].size);
  }
  result.lower_bound = live_size_lower_bound(items);
  result.buffer_sizes = {0, static_cast<int64_t>(result.arena_size)};
  return result;
}

}  // namespace ember::aot
