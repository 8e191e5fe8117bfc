// XnnpackPartitioner::supports(): accepted nodes, and the reason for each refusal (op
// missing from this XNNPACK, dtype, dynamic shape, attributes such as alpha != 1).
#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"

namespace ember::backends::xnnpack {
namespace {

using aot::testing::GraphBuilder;

aot::Support last_node_support(GraphBuilder& b) {
  XnnpackPartitioner p;
  const aot::Graph& g = b.graph();
  return p.supports(g.nodes().back(), g);
}

TEST(XnnpackSupportTest, AcceptsElementwiseAndActivations) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add_0", {2, 3});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::hardswish.default", {{"self", x}}, "hardswish_1", {2, 3});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::relu.default", {{"self", x}}, "relu_2", {2, 3});
  EXPECT_TRUE(last_node_support(b).supported);
}

TEST(XnnpackSupportTest, AddWithAlphaIsRefusedWithReason) {
  GraphBuilder b;
  auto x = b.input("x", {2, 3});
  b.op("aten::add.Tensor", {{"self", x}, {"other", x}}, "add_0", {2, 3},
       {{"alpha", aot::Argument::integer(2), true}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("add with alpha \u2260 1"), std::string::npos) << s.reason;
  b.op("aten::sub.Tensor", {{"self", x}, {"other", x}}, "sub_1", {2, 3},
       {{"alpha", aot::Argument::floating(1.0), true}});
  EXPECT_TRUE(last_node_support(b).supported);
}

TEST(XnnpackSupportTest, OpsThisXnnpackLacks) {
  GraphBuilder b;
  auto x = b.input("x", {4});
  b.op("aten::erf.default", {{"self", x}}, "erf_0", {4});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason,
            "erf: XNNPACK has no erf operator (gelu with approximate='none' is delegated whole)");
  b.op("aten::logical_not.default", {{"self", x}}, "logical_not_1", {4});
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason, "logical_not: reads or writes bool tensors (XNNPACK has no boolean datatype)");
  b.op("aten::cumsum.default", {{"self", x}}, "cumsum_1", {4});
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_EQ(s.reason, "aten::cumsum.default: no XNNPACK lowering");
}

// pow with exponent 2 or 3 is lowered as multiplies (GPT-2's tanh GELU); other exponents stay out.
TEST(XnnpackSupportTest, PowBySmallIntegers) {
  GraphBuilder b;
  auto x = b.input("x", {4});
  b.op("aten::pow.Tensor_Scalar", {{"self", x}}, "pow_0", {4},
       {{"exponent", aot::Argument::floating(3.0), false}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::pow.Tensor_Scalar", {{"self", x}}, "pow_1", {4},
       {{"exponent", aot::Argument::integer(2), false}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::pow.Tensor_Scalar", {{"self", x}}, "pow_2", {4},
       {{"exponent", aot::Argument::floating(2.5), false}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("other than 2 or 3"), std::string::npos) << s.reason;
}

// XNNPACK's tanh and exact gelu; tanh-approximated gelu stays out.
TEST(XnnpackSupportTest, GeluExactOnly) {
  GraphBuilder b;
  auto x = b.input("x", {4});
  b.op("aten::tanh.default", {{"self", x}}, "tanh_0", {4});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::gelu.default", {{"self", x}}, "gelu_1", {4});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::gelu.default", {{"self", x}}, "gelu_2", {4},
       {{"approximate", aot::Argument::string("tanh"), true}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("approximate='tanh'"), std::string::npos) << s.reason;
}

// layer_norm: trailing dims, constant affine parameters, mean/rstd outputs unused.
TEST(XnnpackSupportTest, LayerNormNeedsConstantWeight) {
  GraphBuilder b;
  auto x = b.input("x", {2, 8});
  auto w = b.input("w", {8});
  b.op("aten::native_layer_norm.default", {{"input", x}, {"weight", w}}, "native_layer_norm_0", {2, 8},
       {{"normalized_shape", aot::Argument::int_list({8}), true}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("weight is not a constant"), std::string::npos) << s.reason;
  auto wc = b.parameter("wc", {8}, std::vector<float>(8, 1.f));
  b.op("aten::native_layer_norm.default", {{"input", x}, {"weight", wc}}, "native_layer_norm_1", {2, 8},
       {{"normalized_shape", aot::Argument::int_list({8}), true}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

// Upsampling: nearest by integer factors; a scale factor must be output / input.
TEST(XnnpackSupportTest, UpsampleFactors) {
  GraphBuilder b;
  auto x = b.input("x", {1, 2, 3, 3});
  b.op("aten::upsample_nearest2d.vec", {{"input", x}}, "upsample_nearest2d_0", {1, 2, 6, 9},
       {{"scale_factors", aot::Argument::float_list({2.0, 3.0}), true}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::upsample_nearest2d.vec", {{"input", x}}, "upsample_nearest2d_1", {1, 2, 7, 7},
       {{"scale_factors", aot::Argument::float_list({2.5, 2.5}), true}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("is not output/input size"), std::string::npos) << s.reason;
  b.op("aten::upsample_nearest2d.vec", {{"input", x}}, "upsample_nearest2d_2", {1, 2, 7, 7});
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("non-integer factor"), std::string::npos) << s.reason;
  b.op("aten::upsample_bilinear2d.vec", {{"input", x}}, "upsample_bilinear2d_3", {1, 2, 7, 7},
       {{"align_corners", aot::Argument::boolean(false), true}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

// split_with_sizes: two outputs (a TensorList); the sizes must cover the split dim.
TEST(XnnpackSupportTest, SplitWithSizesCoveringTheDim) {
  GraphBuilder b;
  auto x = b.input("x", {1, 4, 2, 2});
  auto first = b.op("aten::split_with_sizes.default", {{"self", x}}, "split_with_sizes_0", {1, 1, 2, 2},
                    {{"split_sizes", aot::Argument::int_list({1, 3}), true},
                     {"dim", aot::Argument::integer(1), true}});
  auto second = b.op("aten::relu.default", {{"self", x}}, "relu_1", {1, 3, 2, 2});  // only for its value
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
  auto y = b.op("aten::relu.default", {{"self", x}}, "relu_0", {2, 2});
  b.graph().value(x).tensor.dtype = aot::ScalarType::Long;
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("only f32"), std::string::npos) << s.reason;
  b.graph().value(x).tensor.dtype = aot::ScalarType::Float;
  b.graph().value(y).tensor.sizes[0].is_static = false;
  b.graph().value(y).tensor.sizes[0].range.max.reset();
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("dynamic dim without an upper bound"), std::string::npos) << s.reason;
  b.graph().value(y).tensor.sizes[0].range.max = 8;  // relu infers its shape: delegated
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
  b.op("aten::select.int", {{"self", y}}, "select_1", {2},
       {{"dim", aot::Argument::integer(0), true}, {"index", aot::Argument::integer(0), true}});
  s = last_node_support(b);  // a static slice bakes the sizes: static shapes only
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("static shapes only for this op"), std::string::npos) << s.reason;
}

TEST(XnnpackSupportTest, ConvolutionNeedsConstantWeights) {
  GraphBuilder b;
  auto x = b.input("x", {1, 2, 4, 4});
  auto w = b.input("w", {3, 2, 1, 1});
  b.op("aten::convolution.default", {{"input", x}, {"weight", w}}, "convolution_0", {1, 3, 4, 4});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("weight is not a constant"), std::string::npos) << s.reason;
  auto wc = b.parameter("wc", {3, 2, 1, 1}, std::vector<float>(6, 1.f));
  b.op("aten::convolution.default", {{"input", x}, {"weight", wc}}, "convolution_1", {1, 3, 4, 4});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

TEST(XnnpackSupportTest, PoolingAndMeanAttributes) {
  GraphBuilder b;
  auto x = b.input("x", {1, 2, 4, 4});
  b.op("aten::avg_pool2d.default", {{"self", x}}, "avg_pool2d_0", {1, 2, 2, 2},
       {{"kernel_size", aot::Argument::int_list({2, 2}), true},
        {"ceil_mode", aot::Argument::boolean(true), true}});
  aot::Support s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("ceil_mode"), std::string::npos) << s.reason;
  b.op("aten::mean.dim", {{"self", x}}, "mean_1", {1, 1, 4, 4},
       {{"dim", aot::Argument::int_list({1}), true}});
  s = last_node_support(b);
  EXPECT_FALSE(s.supported);
  EXPECT_NE(s.reason.find("only over H and W"), std::string::npos) << s.reason;
  b.op("aten::mean.dim", {{"self", x}}, "mean_2", {1, 2, 1, 1},
       {{"dim", aot::Argument::int_list({-1, -2}), true}});
  EXPECT_TRUE(last_node_support(b).supported) << last_node_support(b).reason;
}

}  // namespace
}  // namespace ember::backends::xnnpack
