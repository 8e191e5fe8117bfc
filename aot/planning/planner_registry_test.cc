// The planner registry: built-in names, lookup, duplicates and unknown names.
#include "aot/planning/planner_registry.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

TEST(PlannerRegistry, BuiltinsByName) {
  MemoryPlannerRegistry registry;
  ASSERT_EQ(register_builtin_planners(&registry), Error::Ok);
  EXPECT_EQ(registry.names(), (std::vector<std::string>{"greedy", "naive"}));
  auto greedy = registry.create(default_memory_planner_name());
  ASSERT_TRUE(greedy.ok());
  EXPECT_STREQ((*greedy)->name(), "greedy");
  auto naive = registry.create("naive");
  ASSERT_TRUE(naive.ok());
  EXPECT_STREQ((*naive)->name(), "naive");
}

TEST(PlannerRegistry, DuplicateAndUnknown) {
  MemoryPlannerRegistry registry;
  ASSERT_EQ(register_builtin_planners(&registry), Error::Ok);
  Error again = register_builtin_planners(&registry);
  EXPECT_EQ(again, Error::InvalidArgument);
  auto missing = registry.create("optimal");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::NotFound);
  EXPECT_NE(std::string(last_error_message()).find("known: greedy, naive"), std::string::npos);
}

}  // namespace
}  // namespace ember::aot
