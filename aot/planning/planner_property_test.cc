// Property test for every built-in planner on random lifetimes (fixed seeds):
// tensors alive at the same instruction never share bytes of the same buffer,
// offsets are aligned, each buffer covers its tensors, the buffers add up to the
// arena, and lower bound <= arena <= sum of sizes.
#include <gtest/gtest.h>

#include <random>

#include "aot/planning/planner_registry.h"

namespace ember::aot {
namespace {

std::vector<PlanTensor> random_tensors(std::mt19937* rng, int count, int horizon) {
  std::uniform_int_distribution<int> time(0, horizon - 1);
  std::uniform_int_distribution<int> length(0, 6);
  std::uniform_int_distribution<uint64_t> size(0, 5000);
  std::vector<PlanTensor> tensors;
  for (int i = 0; i < count; ++i) {
    PlanTensor t;
    t.first_use = time(*rng);
    t.last_use = t.first_use + length(*rng);
    t.size_bytes = size(*rng);
    t.is_input = (i % 7 == 0);
    t.is_output = (i % 11 == 0);
    t.memory_id = (i % 5 == 4) ? 2 : 1;
    tensors.push_back(t);
  }
  return tensors;
}

TEST(PlannerProperty, NoOverlapAndBounds) {
  MemoryPlannerRegistry registry;
  ASSERT_EQ(register_builtin_planners(&registry), Error::Ok);
  for (const std::string& name : registry.names()) {
    auto planner = registry.create(name);
    ASSERT_TRUE(planner.ok());
    for (uint32_t seed = 1; seed <= 60; ++seed) {
      std::mt19937 rng(seed);
      std::vector<PlanTensor> tensors = random_tensors(&rng, 5 + seed % 40, 30);
      PlanOptions options;
      options.plan_inputs = seed % 3 != 0;
      auto result = (*planner)->plan(tensors, options);
      ASSERT_TRUE(result.ok()) << format_error(result.error());
      const MemoryPlan& plan = result.get();
      uint64_t total = 0;
      for (size_t i = 0; i < tensors.size(); ++i) {
        const TensorPlacement& a = plan.placements[i];
        bool want = !(tensors[i].is_input && !options.plan_inputs);
        ASSERT_EQ(a.planned, want) << name << " seed " << seed << " tensor " << i;
        if (!a.planned) continue;
        uint64_t size_a = (tensors[i].size_bytes + 15) / 16 * 16;
        total += size_a;
        EXPECT_EQ(a.offset % 16, 0u);
        ASSERT_LT(a.memory_id, plan.buffer_sizes.size());
        EXPECT_EQ(a.memory_id, tensors[i].memory_id);
        EXPECT_LE(a.offset + size_a, static_cast<uint64_t>(plan.buffer_sizes[a.memory_id]));
        for (size_t j = i + 1; j < tensors.size(); ++j) {
          const TensorPlacement& b = plan.placements[j];
          if (!b.planned || b.memory_id != a.memory_id) continue;
          bool live_together = tensors[i].first_use <= tensors[j].last_use &&
                               tensors[j].first_use <= tensors[i].last_use;
          uint64_t size_b = (tensors[j].size_bytes + 15) / 16 * 16;
          bool share_bytes = size_a > 0 && size_b > 0 && a.offset < b.offset + size_b &&
                             b.offset < a.offset + size_a;
          EXPECT_FALSE(live_together && share_bytes)
              << name << " seed " << seed << ": tensors " << i << " and " << j;
        }
      }
      EXPECT_GE(plan.arena_size, plan.lower_bound) << name << " seed " << seed;
      EXPECT_LE(plan.arena_size, total) << name << " seed " << seed;
      EXPECT_EQ(plan.buffer_sizes[0], 0);
      uint64_t sum = 0;
      for (int64_t size : plan.buffer_sizes) sum += static_cast<uint64_t>(size);
      EXPECT_EQ(sum, plan.arena_size);
    }
  }
}

}  // namespace
}  // namespace ember::aot
