// XnnpackPartitioner::supports(): accepted nodes, and the reason for each refusal (op
// missing from this XNNPACK, dtype, dynamic shape, attributes such as alpha != 1).
#include <gtest/gtest.h>

#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "tests/delegation/graph_builder.h"

namespace ember::testing {
namespace {

using backends::xnnpack::XnnpackPartitioner;

aot::Support last_node_support(GraphBuilder& b) {
  XnnpackPartitioner p;
  const aot::Graph& g = b.graph();
  return p.supports(g.nodes().back(), g);
}

TEST(XnnpackSupportTest, AcceptsElementwiseAndActivations) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.op("add", "Tensor", {{"self", x}, {"other", x}}, {2, 3});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("hardswish", "default", {{"self", x}}, {2, 3});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("relu", "default", {{"self", x}}, {2, 3});
  EXPECT_TRUE(last_node_support(b).supported);
}

TEST(XnnpackSupportTest, AddWithAlphaIsRefusedWithReason) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.op("add", "Tensor", {{"self", x}, {"other", x}}, {2, 3});
  b.last_arg("alpha", aot::Argument::integer(2));
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("add with alpha \u2260 1"), std::string::npos) << s.reason;
  b.op("sub", "Tensor", {{"self", x}, {"other", x}}, {2, 3});
  b.last_arg("alpha", aot::Argument::floating(1.0));
  EXPECT_TRUE(last_node_support(b).supported);
}

TEST(XnnpackSupportTest, OpsThisXnnpackLacks) {
  GraphBuilder b;
  auto x = b.input("x", {4});
  b.op("tanh", "default", {{"self", x}}, {4});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason, "tanh: not supported by this XNNPACK version");
  b.op("cumsum", "default", {{"self", x}}, {4});
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason, "aten::cumsum.default: no XNNPACK lowering");
}

// split_with_sizes: two outputs (a TensorList); the sizes must cover the split dim.
TEST(XnnpackSupportTest, SplitWithSizesCoveringTheDim) {
  GraphBuilder b;
  auto x = b.input("x", {1, 4, 2, 2});
  auto first = b.op("split_with_sizes", "default", {{"self", x}}, {1, 1, 2, 2});
  b.last_arg("split_sizes", aot::Argument::int_list({1, 3}));
  b.last_arg("dim", aot::Argument::integer(1));
  auto second = b.op("relu", "default", {{"self", x}}, {1, 3, 2, 2});  // only for its value
  b.graph().nodes().pop_back();
  b.graph().nodes().back().outputs = {aot::Argument::tensor_list({first, second})};
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  for (aot::NamedArgument& a : b.graph().nodes().back().inputs) {
    if (a.name == "split_sizes") a.arg = aot::Argument::int_list({1, 2});
  }
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason, "split_with_sizes: split sizes do not cover the dim");
}

TEST(XnnpackSupportTest, DtypeAndShapeChecks) {
  GraphBuilder b;
  auto x = b.input("x", {2, 2});
  auto y = b.op("relu", "default", {{"self", x}}, {2, 2});
  b.graph().value(x).tensor.dtype = aot::ScalarType::Long;
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("only f32"), std::string::npos) << s.reason;
  b.graph().value(x).tensor.dtype = aot::ScalarType::Float;
  b.graph().value(y).tensor.sizes[0].is_static = false;
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("dynamic shape"), std::string::npos) << s.reason;
}

TEST(XnnpackSupportTest, ConvolutionNeedsConstantWeights) {
  GraphBuilder b;
  auto x = b.input("x", {1, 2, 4, 4});
  auto w = b.input("w", {3, 2, 1, 1});
  b.op("convolution", "default", {{"input", x}, {"weight", w}}, {1, 3, 4, 4});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("weight is not a constant"), std::string::npos) << s.reason;
  auto wc = b.constant("wc", {3, 2, 1, 1}, std::vector<float>(6, 1.f));
  b.op("convolution", "default", {{"input", x}, {"weight", wc}}, {1, 3, 4, 4});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

TEST(XnnpackSupportTest, PoolingAndMeanAttributes) {
  GraphBuilder b;
  auto x = b.input("x", {1, 2, 4, 4});
  b.op("avg_pool2d", "default", {{"self", x}}, {1, 2, 2, 2});
  b.last_arg("kernel_size", aot::Argument::int_list({2, 2}));
  b.last_arg("ceil_mode", aot::Argument::boolean(true));
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("ceil_mode"), std::string::npos) << s.reason;
  b.op("mean", "dim", {{"self", x}}, {1, 1, 4, 4});
  b.last_arg("dim", aot::Argument::int_list({1}));
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("only over H and W"), std::string::npos) << s.reason;
  b.op("mean", "dim", {{"self", x}}, {1, 2, 1, 1});
  b.last_arg("dim", aot::Argument::int_list({-1, -2}));
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

}  // namespace
}  // namespace ember::testing
