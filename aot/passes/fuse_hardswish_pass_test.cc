// FuseHardswishPass on hand-made graphs shaped like core ATen's hardswish decomposition
// (wrapped numbers made f32 constants by ScalarToTensorPass + CastScalarConstantsPass).
#include "aot/passes/fuse_hardswish_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/cast_scalar_constants_pass.h"
#include "aot/passes/scalar_to_tensor_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

NamedArgument number(const char* name, int64_t v) { return {name, Argument::integer(v), false}; }
NamedArgument none(const char* name) { return {name, Argument::none(), false}; }

// x -> add 3 -> clamp(min=0) -> clamp(max=6) -> mul(x, .) -> div 6 -> (relu when `extra_use`
// reads the mul too).
Graph hardswish_graph(bool mul_first_operand_is_x, bool extra_use) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}}, "add", {1, 2}, {number("other", 3)});
  ValueId c = b.op("aten::clamp.default", {{"self", a}}, "clamp", {1, 2}, {number("min", 0)});
  ValueId c1 = b.op("aten::clamp.default", {{"self", c}}, "clamp_1", {1, 2},
                    {none("min"), number("max", 6)});
  ValueId m = mul_first_operand_is_x
                  ? b.op("aten::mul.Tensor", {{"self", x}, {"other", c1}}, "mul", {1, 2})
                  : b.op("aten::mul.Tensor", {{"self", c1}, {"other", x}}, "mul", {1, 2});
  b.output(b.op("aten::div.Tensor", {{"self", m}}, "div", {1, 2}, {number("other", 6)}));
  if (extra_use) b.output(b.op("aten::relu.default", {{"self", m}}, "relu", {1, 2}));
  Graph g = b.take();
  EXPECT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  EXPECT_EQ(CastScalarConstantsPass().run(g), Error::Ok);
  return g;
}

TEST(FuseHardswishPassTest, FiveNodesBecomeHardswish) {
  for (bool x_first : {true, false}) {
    Graph g = hardswish_graph(x_first, false);
    ASSERT_EQ(FuseHardswishPass().run(g), Error::Ok);
    EXPECT_EQ(print_body(g), "%div : f32[1, 2] = aten::hardswish.default(self=%x)\n");
    EXPECT_EQ(verify_graph(g), Error::Ok);
  }
}

TEST(FuseHardswishPassTest, IntermediateWithAnotherUseIsKept) {
  Graph g = hardswish_graph(true, true);
  const std::string before = print_body(g);
  ASSERT_EQ(FuseHardswishPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);
}

TEST(FuseHardswishPassTest, HardsigmoidIsNotHardswish) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}}, "add", {1, 2}, {number("other", 3)});
  ValueId c = b.op("aten::clamp.default", {{"self", a}}, "clamp", {1, 2},
                   {number("min", 0), number("max", 6)});
  b.output(b.op("aten::div.Tensor", {{"self", c}}, "div", {1, 2}, {number("other", 6)}));
  Graph g = b.take();
  ASSERT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  ASSERT_EQ(CastScalarConstantsPass().run(g), Error::Ok);
  const std::string before = print_body(g);
  ASSERT_EQ(FuseHardswishPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);
}

}  // namespace
}  // namespace ember::aot
