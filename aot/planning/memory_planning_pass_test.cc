// MemoryPlanningPass on a hand-made chain: lifetimes, the lower bound, buffer reuse and
// the planner choice (expected values worked out by hand in the comments).
#include "aot/planning/memory_planning_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

TEST(MemoryPlanningPassTest, ChainReusesMemoryAndReportsLowerBound) {
  GraphBuilder b;
  ValueId x = b.input("x", {16});                                   // 64 B
  ValueId a = b.op("aten::neg.default", {{"self", x}}, "a", {16});  // node 0
  ValueId c = b.op("aten::neg.default", {{"self", a}}, "c", {16});  // node 1
  ValueId d = b.op("aten::neg.default", {{"self", c}}, "d", {16});  // node 2
  b.output(d);
  Graph g = b.take();
  MemoryPlanReport report;
  ASSERT_EQ(MemoryPlanningPass("greedy", &report).run(g), Error::Ok);
  // Live sets: node 0 {x, a}, node 1 {a, c}, node 2 {c, d}: bound 128 B; x and c can share.
  EXPECT_EQ(report.lower_bound, 128u);
  EXPECT_EQ(report.arena_size, 128u);
  EXPECT_EQ(report.planned_tensors, 4u);
  EXPECT_EQ(g.value(x).tensor.lifetime_begin, 0);
  EXPECT_EQ(g.value(x).tensor.lifetime_end, 0);
  EXPECT_EQ(g.value(d).tensor.lifetime_end, 2);
  EXPECT_EQ(g.value(a).tensor.mem_id, 1);
  EXPECT_NE(g.value(a).tensor.mem_offset, g.value(c).tensor.mem_offset);
  MemoryPlanReport naive;
  ASSERT_EQ(MemoryPlanningPass("naive", &naive).run(g), Error::Ok);
  EXPECT_EQ(naive.arena_size, 256u);
  EXPECT_EQ(MemoryPlanningPass("nope").run(g), Error::NotFound);
}

}  // namespace
}  // namespace ember::aot
