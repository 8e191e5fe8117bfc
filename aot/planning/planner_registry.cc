// Planner registry by name (see planner_registry.h).
#include "aot/planning/planner_registry.h"

#include "aot/planning/naive_planner.h"
#include "aot/planning/greedy_planner.h"

namespace ember::aot {

Error MemoryPlannerRegistry::register_planner(const std::string& name,
                                               MemoryPlannerFactory factory) {
  if (name.empty() || factory == nullptr) {
    return invalid_argument("a memory planner needs a name and a factory");
  }
  for (const auto& entry : entries_) {
    if (entry.first == name) {
      return invalid_argument("memory planner '" + name + "' is already registered");
    }
  }
  entries_.emplace_back(name, factory);
  return Error::Ok;
}

Result<std::unique_ptr<MemoryPlanner>> MemoryPlannerRegistry::create(
    const std::string& name) const {
  std::string known;
  for (const auto& entry : entries_) {
    if (entry.first == name) return entry.second();
    known += (known.empty() ? "" : ", ") + entry.first;
  }
  return not_found("no memory planner named '" + name +
                   "'; known: " + (known.empty() ? "(none)" : known));
}

std::vector<std::string> MemoryPlannerRegistry::names() const {
  std::vector<std::string> out;
  for (const auto& entry : entries_) out.push_back(entry.first);
  return out;
}

Error register_builtin_planners(MemoryPlannerRegistry* registry) {
  EMBER_TRY(registry->register_planner(
      "greedy",
      []() -> std::unique_ptr<MemoryPlanner> { return std::make_unique<GreedyBySizePlanner>(); }));
  return registry->register_planner(
      "naive", []() -> std::unique_ptr<MemoryPlanner> { return std::make_unique<NaivePlanner>(); });
}

}  // namespace ember::aot
