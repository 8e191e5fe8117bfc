// GreedyBySizePlanner and NaivePlanner on small cases whose offsets, arena sizes
// and lower bounds were worked out by hand from the algorithm descriptions.
#include "aot/planning/greedy_planner.h"

#include <gtest/gtest.h>

#include "aot/planning/naive_planner.h"

namespace ember::aot {
namespace {

PlanTensor tensor(uint64_t size, int32_t first, int32_t last) {
  PlanTensor t;
  t.size_bytes = size;
  t.first_use = first;
  t.last_use = last;
  return t;
}

MemoryPlan plan_or_die(const MemoryPlanner& planner, const std::vector<PlanTensor>& tensors,
                       PlanOptions options = PlanOptions()) {
  auto result = planner.plan(tensors, options);
  EXPECT_TRUE(result.ok()) << format_error(result.error());
  return result.ok() ? std::move(result.get()) : MemoryPlan();
}

// A[0,1] 32 B, B[1,2] 16 B, C[2,3] 48 B. Live sums: t0 32, t1 48, t2 64, t3 48.
TEST(GreedyPlanner, ChainReusesMemoryAndMeetsLowerBound) {
  std::vector<PlanTensor> tensors{tensor(32, 0, 1), tensor(16, 1, 2), tensor(48, 2, 3)};
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), tensors);
  // Order C(48) @0; A(32) does not meet C @0; B meets A [0,32) and C [0,48) -> 48.
  EXPECT_EQ(plan.placements[0].offset, 0u);
  EXPECT_EQ(plan.placements[1].offset, 48u);
  EXPECT_EQ(plan.placements[2].offset, 0u);
  for (const auto& p : plan.placements) {
    EXPECT_TRUE(p.planned);
    EXPECT_EQ(p.memory_id, 1u);
  }
  EXPECT_EQ(plan.arena_size, 64u);
  EXPECT_EQ(plan.lower_bound, 64u);
  EXPECT_EQ(plan.buffer_sizes, (std::vector<int64_t>{0, 64}));
}

TEST(NaivePlanner, NoReuse) {
  std::vector<PlanTensor> tensors{tensor(32, 0, 1), tensor(16, 1, 2), tensor(48, 2, 3)};
  MemoryPlan plan = plan_or_die(NaivePlanner(), tensors);
  EXPECT_EQ(plan.placements[0].offset, 0u);
  EXPECT_EQ(plan.placements[1].offset, 32u);
  EXPECT_EQ(plan.placements[2].offset, 48u);
  EXPECT_EQ(plan.arena_size, 96u);
  EXPECT_EQ(plan.lower_bound, 64u);
}

// Sizes round up to 16: 10 -> 16, 20 -> 32, 1 -> 16. All live at t0: bound 64.
TEST(GreedyPlanner, SizesAndOffsetsAreAligned) {
  std::vector<PlanTensor> tensors{tensor(10, 0, 0), tensor(20, 0, 0), tensor(1, 0, 0)};
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), tensors);
  // Order: 32 (t1) @0, then 16 (t0) @32, then 16 (t2) @48.
  EXPECT_EQ(plan.placements[1].offset, 0u);
  EXPECT_EQ(plan.placements[0].offset, 32u);
  EXPECT_EQ(plan.placements[2].offset, 48u);
  EXPECT_EQ(plan.arena_size, 64u);
  EXPECT_EQ(plan.lower_bound, 64u);
  PlanOptions options;
  options.alignment = 64;
  MemoryPlan wide = plan_or_die(GreedyBySizePlanner(), tensors, options);
  EXPECT_EQ(wide.arena_size, 192u);
  EXPECT_EQ(wide.lower_bound, 192u);
}

// A 256 [0,0], B 128 [0,9], C 112 [1,1], D 64 [1,9], F 64 [2,9].
// A@0, B@256 (meets A), C@0 (hole [0,256) below B), D@112 (hole [112,256) of 144),
// F meets B [256,384) and D [112,176): holes [0,112) (112) and [176,256) (80);
// best fit takes the 80-byte hole at 176 (first fit would take 0).
TEST(GreedyPlanner, PicksTheSmallestHoleThatFits) {
  std::vector<PlanTensor> tensors{tensor(256, 0, 0), tensor(128, 0, 9), tensor(112, 1, 1),
                                  tensor(64, 1, 9), tensor(64, 2, 9)};
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), tensors);
  std::vector<uint64_t> expected{0, 256, 0, 112, 176};
  for (size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(plan.placements[i].offset, expected[i]) << "tensor " << i;
  }
  EXPECT_EQ(plan.arena_size, 384u);
  EXPECT_EQ(plan.lower_bound, 384u);  // t0: 256 + 128
}

TEST(GreedyPlanner, UnplannedInputsAndOutputsAreLeftOut) {
  std::vector<PlanTensor> tensors{tensor(64, 0, 1), tensor(32, 1, 2), tensor(64, 2, 2)};
  tensors[0].is_input = true;
  tensors[2].is_output = true;
  PlanOptions options;
  options.plan_inputs = false;
  options.plan_outputs = false;
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), tensors, options);
  EXPECT_FALSE(plan.placements[0].planned);
  EXPECT_EQ(plan.placements[0].memory_id, 0u);
  EXPECT_TRUE(plan.placements[1].planned);
  EXPECT_EQ(plan.placements[1].offset, 0u);
  EXPECT_FALSE(plan.placements[2].planned);
  EXPECT_EQ(plan.arena_size, 32u);
  EXPECT_EQ(plan.lower_bound, 32u);
}

// Buffer 1: A 32 [0,1], B 32 [1,2] (overlap: 64). Buffer 2: S 48 [0,2] alone.
// Expected buffer_sizes [0, 64, 48], offsets A 0, B 32, S 0 in buffer 2.
TEST(GreedyPlanner, TensorsCanAskForAnotherBuffer) {
  std::vector<PlanTensor> tensors{tensor(32, 0, 1), tensor(32, 1, 2), tensor(48, 0, 2)};
  tensors[2].memory_id = 2;
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), tensors);
  EXPECT_EQ(plan.buffer_sizes, (std::vector<int64_t>{0, 64, 48}));
  EXPECT_EQ(plan.placements[0].memory_id, 1u);
  EXPECT_EQ(plan.placements[1].offset, 32u);
  EXPECT_EQ(plan.placements[2].memory_id, 2u);
  EXPECT_EQ(plan.placements[2].offset, 0u);
  EXPECT_EQ(plan.arena_size, 112u);
  EXPECT_EQ(plan.lower_bound, 112u);
  tensors[2].memory_id = 0;
  EXPECT_FALSE(GreedyBySizePlanner().plan(tensors, PlanOptions()).ok());
}

TEST(GreedyPlanner, EmptyInputGivesEmptyArena) {
  MemoryPlan plan = plan_or_die(GreedyBySizePlanner(), {});
  EXPECT_EQ(plan.arena_size, 0u);
  EXPECT_EQ(plan.lower_bound, 0u);
  EXPECT_EQ(plan.buffer_sizes, (std::vector<int64_t>{0, 0}));
}

TEST(MemoryPlanner, RejectsBadInput) {
  auto reversed = GreedyBySizePlanner().plan({tensor(16, 3, 2)}, PlanOptions());
  ASSERT_FALSE(reversed.ok());
  EXPECT_EQ(reversed.error(), Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("tensor 0 has last_use 2 before first_use 3"),
            std::string::npos)
      << std::string(last_error_message());
  PlanOptions options;
  options.alignment = 24;
  auto bad_alignment = NaivePlanner().plan({tensor(16, 0, 0)}, options);
  ASSERT_FALSE(bad_alignment.ok());
  EXPECT_EQ(bad_alignment.error(), Error::InvalidArgument);
}

TEST(MemoryPlanner, LowerBoundCountsInclusiveLifetimes) {
  // [0,2] and [2,4] share instruction 2; [5,5] is alone.
  std::vector<PlanItem> items{{16, 0, 2}, {32, 2, 4}, {64, 5, 5}};
  EXPECT_EQ(live_size_lower_bound(items), 64u);
  items[2].size = 16;
  EXPECT_EQ(live_size_lower_bound(items), 48u);
}

}  // namespace
}  // namespace ember::aot
