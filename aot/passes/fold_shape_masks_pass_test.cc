// FoldShapeMasksPass on hand-made graphs. Expected masks are written out by hand: a causal
// mask of length 4 is the lower triangle (key index <= query index).
#include "aot/passes/fold_shape_masks_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

NamedArgument lit(const char* name, int64_t v) { return {name, Argument::integer(v), false}; }

// arange(0, 4) -> kv [1, 4] and q [4, 1] -> le -> bool [4, 4]; then & with the padding mask
// (a graph input): everything up to le is shape-only.
Graph causal_graph() {
  GraphBuilder b;
  ValueId pad = b.input("pad", {1, 4}, ScalarType::Bool);
  ValueId ar = b.op("aten::arange.start_step", {}, "arange", {4}, {lit("start", 0), lit("end", 4)},
                    ScalarType::Long);
  ValueId kv = b.op("aten::unsqueeze.default", {{"self", ar}}, "kv", {1, 4}, {lit("dim", 0)},
                    ScalarType::Long);
  ValueId q = b.op("aten::unsqueeze.default", {{"self", ar}}, "q", {4, 1}, {lit("dim", 1)},
                   ScalarType::Long);
  ValueId le =
      b.op("aten::le.Tensor", {{"self", kv}, {"other", q}}, "le", {4, 4}, {}, ScalarType::Bool);
  ValueId m = b.op("aten::bitwise_and.Tensor", {{"self", le}, {"other", pad}}, "mask", {4, 4}, {},
                   ScalarType::Bool);
  b.output(m);
  return b.take();
}

TEST(FoldShapeMasksPassTest, FoldsTheCausalMaskAndKeepsTheInputDependentPart) {
  Graph g = causal_graph();
  ASSERT_EQ(FoldShapeMasksPass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u) << print_body(g);
  // The folded mask is a lifted tensor constant now: an input ahead of the user input.
  EXPECT_EQ(verify_graph(g), Error::Ok) << last_error_message();
  ASSERT_EQ(g.inputs().size(), 2u);
  EXPECT_EQ(g.signature().inputs[0].kind, InputKind::TensorConstant);
  const Node& n = g.nodes()[0];
  EXPECT_EQ(n.op.qualified(), "aten::bitwise_and.Tensor");
  const TensorSpec& le = g.value(tensor_of(n.find_input("self")->arg)).tensor;
  ASSERT_NE(le.constant, nullptr);
  const std::vector<uint8_t> want = {1, 0, 0, 0,  //
                                     1, 1, 0, 0,  //
                                     1, 1, 1, 0,  //
                                     1, 1, 1, 1};
  EXPECT_EQ(le.constant->bytes, want);
}

TEST(FoldShapeMasksPassTest, LeavesIntegerArithmeticThatFeedsNoMask) {
  // arange * 2 (int64) feeding a graph output: no bool in sight, nothing folds.
  GraphBuilder b;
  ValueId x = b.input("x", {4}, ScalarType::Long);
  ValueId ar = b.op("aten::arange.start_step", {}, "arange", {4}, {lit("start", 0), lit("end", 4)},
                    ScalarType::Long);
  ValueId two =
      b.op("aten::mul.Scalar", {{"self", ar}}, "twice", {4}, {lit("other", 2)}, ScalarType::Long);
  b.output(
      b.op("aten::add.Tensor", {{"self", two}, {"other", x}}, "sum", {4}, {}, ScalarType::Long));
  Graph g = b.take();
  ASSERT_EQ(FoldShapeMasksPass().run(g), Error::Ok);
  EXPECT_EQ(g.nodes().size(), 3u) << print_body(g);
}

TEST(FoldShapeMasksPassTest, BroadcastsScalarsAndWhere) {
  // where(arange(0,3) >= 1, 5, -1) as int64, then eq 5 -> bool [3] = [0, 1, 1].
  GraphBuilder b;
  ValueId x = b.input("x", {3}, ScalarType::Bool);
  ValueId ar = b.op("aten::arange.start_step", {}, "arange", {3}, {lit("start", 0), lit("end", 3)},
                    ScalarType::Long);
  ValueId ge =
      b.op("aten::ge.Scalar", {{"self", ar}}, "ge", {3}, {lit("other", 1)}, ScalarType::Bool);
  ValueId five =
      b.op("aten::full.default", {}, "five", {},
           {{"size", Argument::int_list({}), false}, lit("fill_value", 5)}, ScalarType::Long);
  ValueId w = b.op("aten::where.self", {{"condition", ge}, {"self", five}}, "w", {3},
                   {lit("other", -1)}, ScalarType::Long);
  ValueId eq =
      b.op("aten::eq.Scalar", {{"self", w}}, "eq", {3}, {lit("other", 5)}, ScalarType::Bool);
  b.output(b.op("aten::logical_and.default", {{"self", eq}, {"other", x}}, "out", {3}, {},
                ScalarType::Bool));
  Graph g = b.take();
  ASSERT_EQ(FoldShapeMasksPass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u) << print_body(g);
  const TensorSpec& eq_spec = g.value(tensor_of(g.nodes()[0].find_input("self")->arg)).tensor;
  ASSERT_NE(eq_spec.constant, nullptr);
  EXPECT_EQ(eq_spec.constant->bytes, (std::vector<uint8_t>{0, 1, 1}));
}

}  // namespace
}  // namespace ember::aot
