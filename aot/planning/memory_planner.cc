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

namespace {

constexpr uint32_t kMaxBufferId = 64;

Error check_tensor(const char* planner, size_t i, const PlanTensor& t) {
  if (t.last_use < t.first_use) {
    return invalid_argument("memory planner " + std::string(planner) + ": tensor " +
                            std::to_string(i) + " has last_use " + std::to_string(t.last_use) +
                            " before first_use " + std::to_string(t.first_use));
  }
  if (t.size_bytes > (uint64_t{1} << 60)) {
    return invalid_argument("tensor " + std::to_string(i) + " has an implausible size " +
                            std::to_string(t.size_bytes));
  }
  if (t.memory_id == 0 || t.memory_id > kMaxBufferId) {
    return invalid_argument("tensor " + std::to_string(i) + " asks for memory_id " +
                            std::to_string(t.memory_id) + ", expected 1.." +
                            std::to_string(kMaxBufferId));
  }
  return Error::Ok;
}

}  // namespace

Result<MemoryPlan> MemoryPlanner::plan(const std::vector<PlanTensor>& tensors,
                                         const PlanOptions& options) const {
  const uint64_t alignment = options.alignment;
  if (alignment == 0 || (alignment & (alignment - 1)) != 0) {
    return invalid_argument("memory planner " + std::string(name()) + ": alignment " +
                            std::to_string(alignment) + " is not a power of two");
  }
  // Planned tensors grouped by buffer id: aligned items and their tensor indices.
  std::map<uint32_t, std::pair<std::vector<PlanItem>, std::vector<size_t>>> buffers;
  uint32_t max_id = 1;
  for (size_t i = 0; i < tensors.size(); ++i) {
    const PlanTensor& t = tensors[i];
    EMBER_TRY(check_tensor(name(), i, t));
    if ((t.is_input && !options.plan_inputs) || (t.is_output && !options.plan_outputs)) continue;
    uint64_t size = (t.size_bytes + alignment - 1) / alignment * alignment;
    buffers[t.memory_id].first.push_back({size, t.first_use, t.last_use});
    buffers[t.memory_id].second.push_back(i);
    max_id = std::max(max_id, t.memory_id);
  }
  MemoryPlan result;
  result.placements.resize(tensors.size());
  result.buffer_sizes.assign(max_id + 1, 0);
  for (const auto& [id, group] : buffers) {
    const std::vector<PlanItem>& items = group.first;
    std::vector<uint64_t> offsets(items.size(), 0);
    assign_offsets(items, alignment, &offsets);
    uint64_t size = 0;
    for (size_t k = 0; k < items.size(); ++k) {
      result.placements[group.second[k]] = {true, id, offsets[k]};
      size = std::max(size, offsets[k] + items[k].size);
    }
    result.buffer_sizes[id] = static_cast<int64_t>(size);
    result.arena_size += size;
    result.lower_bound += live_size_lower_bound(items);
  }
  return result;
}

}  // namespace ember::aot
