// A small registry of memory planners by name, so that a command-line option
// (--memory_planner=greedy) can pick one. Registration is explicit: the program
// that wants planners calls register_builtin_planners() (and registers its own);
// a duplicate name is an error.
#pragma once

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "aot/ir/error.h"
#include "aot/planning/memory_planner.h"

namespace ember::aot {

using MemoryPlannerFactory = std::unique_ptr<MemoryPlanner> (*)();

class MemoryPlannerRegistry {
 public:
  // InvalidArgument if `name` is empty or already registered.
  Error register_planner(const std::string& name, MemoryPlannerFactory factory);
  // NotFound (listing the known names) if nothing is registered under `name`.
  Result<std::unique_ptr<MemoryPlanner>> create(const std::string& name) const;
  // Registered names, in registration order.
  std::vector<std::string> names() const;

 private:
  std::vector<std::pair<std::string, MemoryPlannerFactory>> entries_;
};

// The default planner's name: "greedy".
inline const char* default_memory_planner_name() { return "greedy"; }

// Registers "greedy" (GreedyBySizePlanner) and "naive" (NaivePlanner).
Error register_builtin_planners(MemoryPlannerRegistry* registry);

}  // namespace ember::aot
