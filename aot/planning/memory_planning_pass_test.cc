// MemoryPlanningPass on a hand-made chain: lifetimes, the lower bound, buffer reuse and
// the planner choice (expected values worked out by hand in the comments).
#include "aot/planning/memory_planning_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/control_flow.h"
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

// A flattened cond (aot/ir/control_flow.h) whose true branch computes b and moves it into the
// result r, read two nodes after the branch: MoveCall aliases r with b, so b must stay planned
// until r's last use (node 6), not only until the move (node 3).
TEST(MemoryPlanningPassTest, MovedBranchValueLivesAsLongAsTheResult) {
  GraphBuilder b;
  ValueId x = b.input("x", {16});
  ValueId r = b.op("aten::neg.default", {{"self", x}}, "r", {16});  // node 0, rewritten below
  ValueId t = b.op("aten::neg.default", {{"self", x}}, "t", {16});  // node 1, the true body
  ValueId u = b.op("aten::neg.default", {{"self", r}}, "u", {16});  // node 2, after the cond
  b.output(u);
  Graph g = b.take();
  std::vector<Node> nodes;
  nodes.push_back(control_node("cond_outputs", {}, {Argument::tensor(r)}, "cond", ""));       // 0
  nodes.push_back(control_node("jump_false", {{"pred", Argument::tensor(x), false},
                                              {"label", Argument::string("else"), false}},
                               {}, "jf", ""));                                                // 1
  nodes.push_back(g.nodes()[1]);                                                              // 2
  nodes.push_back(control_node("move", {{"src", Argument::tensor(t), false},
                                        {"dst", Argument::tensor(r), false}}, {}, "mv", ""));  // 3
  nodes.push_back(control_node("label", {{"label", Argument::string("else"), false}}, {}, "l", ""));  // 4
  nodes.push_back(control_node("label", {{"label", Argument::string("end"), false}}, {}, "e", ""));   // 5
  nodes.push_back(g.nodes()[2]);                                                              // 6
  g.nodes() = std::move(nodes);
  ASSERT_EQ(MemoryPlanningPass("greedy").run(g), Error::Ok);
  EXPECT_EQ(g.value(t).tensor.lifetime_begin, 2);
  EXPECT_EQ(g.value(t).tensor.lifetime_end, 6);
  EXPECT_NE(g.value(t).tensor.mem_offset, g.value(u).tensor.mem_offset);  // u is written while r=t is read
}

// A loop (label at node 1, backward jump at node 3): v, first used inside it, lives from the
// label to the jump.
TEST(MemoryPlanningPassTest, ValuesInsideALoopLiveForTheWholeLoop) {
  GraphBuilder b;
  ValueId x = b.input("x", {16});
  ValueId v = b.op("aten::neg.default", {{"self", x}}, "v", {16});
  ValueId w = b.op("aten::neg.default", {{"self", x}}, "w", {16});
  b.output(w);
  Graph g = b.take();
  std::vector<Node> nodes;
  nodes.push_back(g.nodes()[1]);                                                                      // 0: w
  nodes.push_back(control_node("label", {{"label", Argument::string("loop"), false}}, {}, "l", ""));  // 1
  nodes.push_back(g.nodes()[0]);                                                                      // 2: v
  nodes.push_back(control_node("jump", {{"label", Argument::string("loop"), false}}, {}, "j", ""));   // 3
  g.nodes() = std::move(nodes);
  ASSERT_EQ(MemoryPlanningPass("greedy").run(g), Error::Ok);
  EXPECT_EQ(g.value(v).tensor.lifetime_begin, 1);
  EXPECT_EQ(g.value(v).tensor.lifetime_end, 3);
  EXPECT_EQ(g.value(x).tensor.lifetime_end, 3);  // read by v on every trip
}

}  // namespace
}  // namespace ember::aot
