// Annotation rules (XNNPACKQuantizer, torch 2.6) and conversion on small hand-built graphs.
// The expected groups are read off torch/ao/quantization/quantizer/xnnpack_quantizer_utils.py
// and pt2e/prepare.py; tests/ptq checks whole models against PyTorch's convert_pt2e.
#include "aot/quantize/annotate.h"

#include <gtest/gtest.h>

#include "aot/ir/testing/graph_builder.h"
#include "aot/quantize/convert.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

std::vector<std::string> observed_names(const Graph& g, const ObserverGroup& grp) {
  std::vector<std::string> out;
  for (ValueId v : grp.observed) out.push_back(g.value(v).name);
  return out;
}

std::vector<std::vector<std::string>> activation_groups(const Graph& g, const QuantPlan& p) {
  std::vector<std::vector<std::string>> out;
  for (const ObserverGroup& grp : p.groups) {
    if (grp.kind == ObserverKind::Histogram) out.push_back(observed_names(g, grp));
  }
  return out;
}

TEST(AnnotateTest, LinearReluObservesInputWeightAndReluOutputOnly) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 0.5f));
  ValueId bias = b.parameter("bias", {4}, std::vector<float>(4, 0.f));
  ValueId x = b.input("x", {2, 3});
  ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}, {"bias", bias}}, "linear", {2, 4});
  ValueId r = b.op("aten::relu.default", {{"self", y}}, "relu", {2, 4});
  b.output(r);
  Graph g = b.take();
  QuantPlan p = annotate_xnnpack_symmetric(g);
  // x, the weight (per channel), relu's output; the bias stays float, linear's output is
  // not observed (it is fused with the relu).
  ASSERT_EQ(p.groups.size(), 3u);
  EXPECT_EQ(activation_groups(g, p), (std::vector<std::vector<std::string>>{{"x"}, {"relu"}}));
  int weights = 0;
  for (const ObserverGroup& grp : p.groups) {
    if (grp.kind == ObserverKind::PerChannelMinMax) {
      ++weights;
      EXPECT_EQ(observed_names(g, grp), std::vector<std::string>{"w"});
    }
  }
  EXPECT_EQ(weights, 1);
}

TEST(AnnotateTest, HardtanhAndMaxPoolShareTheConvolutionsObserver) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 1, 1, 1}, {1.f, -2.f});
  ValueId x = b.input("x", {1, 1, 4, 4});
  ValueId c = b.op("aten::conv2d.default", {{"input", x}, {"weight", w}}, "conv2d", {1, 2, 4, 4});
  ValueId h = b.op("aten::hardtanh.default", {{"self", c}}, "hardtanh", {1, 2, 4, 4},
                   {{"min_val", Argument::floating(0), false}, {"max_val", Argument::floating(6), false}});
  ValueId m = b.op("aten::max_pool2d.default", {{"self", h}}, "max_pool2d", {1, 2, 2, 2},
                   {{"kernel_size", Argument::int_list({2, 2}), false}});
  b.output(m);
  Graph g = b.take();
  QuantPlan p = annotate_xnnpack_symmetric(g);
  // conv is not fused with hardtanh (only relu); propagate_annotation makes hardtanh and
  // max_pool2d share conv2d's output observer, which then sees all three tensors in order.
  EXPECT_EQ(activation_groups(g, p),
            (std::vector<std::vector<std::string>>{{"x"}, {"conv2d", "hardtanh", "max_pool2d"}}));
}

TEST(AnnotateTest, AddReluAndCatSharing) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  ValueId y = b.input("y", {2, 3});
  ValueId a = b.op("aten::add.Tensor", {{"self", x}, {"other", y}}, "add", {2, 3});
  ValueId r = b.op("aten::relu.default", {{"self", a}}, "relu", {2, 3});
  Argument list = Argument::tensor_list({r, x});
  ValueId c = b.op("aten::cat.default", {}, "cat", {4, 3}, {{"tensors", list, false}});
  b.output(c);
  Graph g = b.take();
  QuantPlan p = annotate_xnnpack_symmetric(g);
  // add+relu: input edges x and y, output relu. cat: its first input's edge (relu) joins
  // relu's output observer (implicit sharing: same spec), x's edge and cat's output share
  // it, and the add's input edge for x joins x's edge into cat (another user of x with the
  // same spec). So one observer sees x, relu and cat; y has its own.
  EXPECT_EQ(activation_groups(g, p),
            (std::vector<std::vector<std::string>>{{"x", "relu", "cat"}, {"y"}}));
}

TEST(ConvertTest, PerChannelScalesMustMatchTheAxis) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 0.5f));
  ValueId x = b.input("x", {2, 3});
  ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {2, 4});
  b.output(y);
  Graph g = b.take();
  QuantPlan p = annotate_xnnpack_symmetric(g);
  std::vector<GroupParams> params(p.groups.size());
  for (size_t i = 0; i < p.groups.size(); ++i) {
    if (p.groups[i].kind == ObserverKind::PerChannelMinMax) params[i].scales = {0.1f, 0.1f, 0.1f};
  }
  Result<Graph> q = convert_to_qdq(g, p, params);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error(), Error::InvalidProgram);
  EXPECT_NE(std::string(last_error_message()).find("per-channel scales for 'w' hold 3 values, axis 0 has 4"),
            std::string::npos)
      << last_error_message();
}

TEST(ConvertTest, WeightThatIsNotAConstantIsNotSupportedAndNamesTheNode) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  ValueId w = b.input("w", {4, 3});
  ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {2, 4});
  b.output(y);
  Graph g = b.take();
  g.nodes()[0].stack_trace = "  File \"model.py\", line 12, in forward\n    return self.fc(x)";
  QuantPlan p = annotate_xnnpack_symmetric(g);
  std::vector<GroupParams> params(p.groups.size());
  for (size_t i = 0; i < p.groups.size(); ++i) params[i].scales = {1, 1, 1, 1};
  Result<Graph> q = convert_to_qdq(g, p, params);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("node 'linear'"), std::string::npos) << last_error_message();
  EXPECT_NE(std::string(last_error_message()).find("model.py:12"), std::string::npos) << last_error_message();
}

TEST(ConvertTest, WritesPT2EQdqForm) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 2}, {1.f, -0.5f, 0.25f, 0.125f});
  ValueId x = b.input("x", {1, 2});
  ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {1, 2});
  b.output(y);
  Graph g = b.take();
  QuantPlan p = annotate_xnnpack_symmetric(g);
  std::vector<GroupParams> params(p.groups.size());
  for (size_t i = 0; i < p.groups.size(); ++i) {
    params[i].act = AffineQParams{0.5f, 3};
    params[i].scales = {1.0f / 127, 0.25f / 127};
  }
  Result<Graph> q = convert_to_qdq(g, p, params);
  ASSERT_TRUE(q.ok()) << last_error_message();
  std::vector<std::string> ops;
  for (const Node& n : q->nodes()) ops.push_back(n.op.name);
  EXPECT_EQ(ops, (std::vector<std::string>{"quantize_per_tensor", "dequantize_per_tensor",
                                           "dequantize_per_channel", "linear",
                                           "quantize_per_tensor", "dequantize_per_tensor"}));
  // w / scale rounded half to even: [127, -63.5 -> -64], [127, 63.5 -> 64].
  const Node& dq = q->nodes()[2];
  const TensorSpec& wq = q->value(dq.inputs[0].arg.values[0]).tensor;
  ASSERT_NE(wq.constant, nullptr);
  const auto* v = reinterpret_cast<const int8_t*>(wq.constant->bytes.data());
  EXPECT_EQ(std::vector<int>(v, v + 4), (std::vector<int>{127, -64, 127, 64}));
}

}  // namespace
}  // namespace ember::aot
