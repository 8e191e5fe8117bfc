// CastScalarConstantsPass on hand-made graphs: the wrapped numbers of hardswish's
// decomposition (made 0-dim i64 constants by ScalarToTensorPass) become f32 constants with
// the same value; constants that feed integer arithmetic stay as they are.
#include "aot/passes/cast_scalar_constants_pass.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/scalar_to_tensor_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

NamedArgument number(const char* name, int64_t v) { return {name, Argument::integer(v), false}; }

const TensorSpec& spec_of(const Graph& g, const Node& n, const char* input) {
  return g.value(tensor_of(n.find_input(input)->arg)).tensor;
}

float float_value(const TensorSpec& s) {
  float f = 0;
  EXPECT_EQ(s.constant->bytes.size(), 4u);
  std::memcpy(&f, s.constant->bytes.data(), 4);
  return f;
}

TEST(CastScalarConstantsPassTest, HardswishNumbersBecomeFloat) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}}, "add", {1, 2}, {number("other", 3)});
  ValueId m = b.op("aten::mul.Tensor", {{"self", x}, {"other", a}}, "mul", {1, 2});
  b.output(b.op("aten::div.Tensor", {{"self", m}}, "div", {1, 2}, {number("other", 6)}));
  Graph g = b.take();
  ASSERT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  ASSERT_EQ(spec_of(g, g.nodes()[0], "other").dtype, ScalarType::Long);
  const std::string before = print_body(g);
  ASSERT_EQ(CastScalarConstantsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);  // same nodes and operands, only the constants change
  const TensorSpec& three = spec_of(g, g.nodes()[0], "other");
  const TensorSpec& six = spec_of(g, g.nodes()[2], "other");
  EXPECT_EQ(three.dtype, ScalarType::Float);
  EXPECT_EQ(three.rank(), 0u);
  EXPECT_EQ(float_value(three), 3.f);
  EXPECT_EQ(six.dtype, ScalarType::Float);
  EXPECT_EQ(float_value(six), 6.f);
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(CastScalarConstantsPassTest, IntegerArithmeticKeepsItsConstant) {
  GraphBuilder b;
  ValueId x = b.input("x", {3}, ScalarType::Long);
  b.output(
      b.op("aten::add.Tensor", {{"self", x}}, "add", {3}, {number("other", 1)}, ScalarType::Long));
  Graph g = b.take();
  ASSERT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  ASSERT_EQ(CastScalarConstantsPass().run(g), Error::Ok);
  EXPECT_EQ(spec_of(g, g.nodes()[0], "other").dtype, ScalarType::Long);
}

TEST(CastScalarConstantsPassTest, ConstantSharedWithAnIntegerUseIsLeftAlone) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  ValueId i = b.input("i", {2}, ScalarType::Long);
  b.output(b.op("aten::add.Tensor", {{"self", x}}, "add", {2}, {number("other", 2)}));
  Graph g = b.take();
  ASSERT_EQ(ScalarToTensorPass().run(g), Error::Ok);
  const ValueId two = tensor_of(g.nodes()[0].find_input("other")->arg);
  Node n = g.nodes()[0];
  n.name = "add_int";
  n.inputs[0].arg = Argument::tensor(i);
  ValueId out = g.add_value({"add_int",
                             ValueKind::Tensor,
                             contiguous_spec(ScalarType::Long, static_sizes({2})),
                             {},
                             ""})
                    .get();
  n.outputs = {Argument::tensor(out)};
  g.nodes().push_back(n);
  g.outputs().push_back(Argument::tensor(out));
  g.signature().outputs.push_back({OutputKind::UserOutput, "add_int", ""});
  ASSERT_EQ(CastScalarConstantsPass().run(g), Error::Ok);
  EXPECT_EQ(g.value(two).tensor.dtype, ScalarType::Long);
}

}  // namespace
}  // namespace ember::aot
