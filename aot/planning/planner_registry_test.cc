// The planner registry: built-in names, lookup, duplicates and unknown names.
#include "aot/planning/planner_registry.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

TEST(PlannerRegistry, BuiltinsByName) {
  MemoryPlannerRegistry registry;
  ASSERT_TRUE(register_builtin_planners(&registry).is_ok());
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"greedy", "naive"}));
  auto greedy = registry.create(default_memory_planner_name());
  ASSERT_TRUE(greedy.is_ok());
  EXPECT_STREQ((*greedy)->name(), "greedy");
  auto naive = registry.create("naive");
  ASSERT_TRUE(naive.is_ok());
  EXPECT_STREQ((*naive)->name(), "naive");
}

TEST(PlannerRegistry, DuplicateAndUnknown) {
  MemoryPlannerRegistry registry;
  ASSERT_TRUE(register_builtin_planners(&registry).is_ok());
  Status again = register_builtin_planners(&registry);
  EXPECT_EQ(again.code(), StatusCode::kInvalidArgument);
  auto missing = registry.create("optimal");
  ASSERT_FALSE(missing.is_ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_NE(missing.status().message().find("known: greedy, naive"), std::string::npos);
}

}  // namespace
}  // namespace ember::aot
