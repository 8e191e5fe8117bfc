// read_qdq on hand-made nodes shaped like convert_pt2e's output (argument lists as torch
// 2.6 writes them); expected parameters and messages written by hand.
#include "aot/quantize/qdq.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/testing/graph_builder.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

NamedArgument arg(const char* name, Argument a) { return {name, std::move(a), false}; }

// A constant graph input of `dtype` holding `bytes`.
template <typename T>
ValueId constant(GraphBuilder& b, const std::string& name, std::vector<int64_t> sizes,
                 ScalarType dtype, const std::vector<T>& data) {
  ValueId v = b.parameter(name, sizes, {0.f}, InputKind::Buffer);  // replaced below
  auto c = std::make_shared<ConstantData>();
  c->bytes.resize(data.size() * sizeof(T));
  std::memcpy(c->bytes.data(), data.data(), c->bytes.size());
  TensorSpec& spec = b.graph().value(v).tensor;
  spec.dtype = dtype;
  spec.constant = std::move(c);
  return v;
}

std::vector<NamedArgument> range(int64_t lo, int64_t hi, ScalarType dtype) {
  return {arg("quant_min", Argument::integer(lo)), arg("quant_max", Argument::integer(hi)),
          arg("dtype", Argument::scalar_type(dtype))};
}

// dequantize_per_channel(w, scales, zero_points, axis, -127, 127, int8) of a [4, 3] weight.
Graph per_channel_graph(int64_t axis, size_t scale_count) {
  GraphBuilder b;
  ValueId w = constant<int8_t>(b, "w", {4, 3}, ScalarType::Char, std::vector<int8_t>(12, 1));
  ValueId s = constant<float>(b, "s", {static_cast<int64_t>(scale_count)}, ScalarType::Float,
                              std::vector<float>(scale_count, 0.5f));
  ValueId z = constant<int64_t>(b, "z", {static_cast<int64_t>(scale_count)}, ScalarType::Long,
                                std::vector<int64_t>(scale_count, 0));
  std::vector<NamedArgument> extra = {arg("axis", Argument::integer(axis))};
  for (auto& a : range(-127, 127, ScalarType::Char)) extra.push_back(a);
  b.output(b.op("quantized_decomposed::dequantize_per_channel.default",
                {{"input", w}, {"scales", s}, {"zero_points", z}}, "dq_w", {4, 3}, extra));
  return b.take();
}

TEST(QdqTest, PerTensorQuantizeAndDequantize) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  std::vector<NamedArgument> qargs = {arg("scale", Argument::floating(0.02)),
                                      arg("zero_point", Argument::integer(-7))};
  for (auto& a : range(-128, 127, ScalarType::Char)) qargs.push_back(a);
  ValueId q = b.op("quantized_decomposed::quantize_per_tensor.default", {{"input", x}}, "q",
                   {2, 3}, qargs, ScalarType::Char);
  ValueId dq = b.op("quantized_decomposed::dequantize_per_tensor.default", {{"input", q}}, "dq",
                    {2, 3}, qargs);
  b.output(dq);
  Graph g = b.take();
  auto qp = read_qdq(g, g.nodes()[0]);
  ASSERT_TRUE(qp.ok()) << format_error(qp.error());
  EXPECT_EQ(qp->kind, QdqKind::Quantize);
  EXPECT_EQ(qp->granularity, QdqGranularity::PerTensor);
  EXPECT_EQ(qp->dtype, ScalarType::Char);
  EXPECT_DOUBLE_EQ(qp->scale, 0.02);
  EXPECT_EQ(qp->zero_point, -7);
  EXPECT_EQ(qp->quant_min, -128);
  EXPECT_EQ(qp->input, x);
  EXPECT_EQ(qp->output, q);
  auto dqp = read_qdq(g, g.nodes()[1]);
  ASSERT_TRUE(dqp.ok()) << format_error(dqp.error());
  EXPECT_EQ(dqp->kind, QdqKind::Dequantize);
  EXPECT_EQ(dqp->out_dtype, ScalarType::Float);
}

TEST(QdqTest, PerChannelReadsConstantScales) {
  Graph g = per_channel_graph(0, 4);
  auto p = read_qdq(g, g.nodes()[0]);
  ASSERT_TRUE(p.ok()) << format_error(p.error());
  EXPECT_EQ(p->granularity, QdqGranularity::PerChannel);
  EXPECT_EQ(p->axis, 0);
  EXPECT_EQ(p->scales, std::vector<double>(4, 0.5));
  EXPECT_EQ(p->zero_points, std::vector<int64_t>(4, 0));
  Graph last = per_channel_graph(-1, 3);  // negative axis: the last dim, 3 channels
  auto q = read_qdq(last, last.nodes()[0]);
  ASSERT_TRUE(q.ok()) << format_error(q.error());
  EXPECT_EQ(q->axis, 1);
}

TEST(QdqTest, PerChannelLengthMustMatchTheAxis) {
  Graph g = per_channel_graph(1, 4);  // axis 1 has 3 channels, 4 scales
  auto p = read_qdq(g, g.nodes()[0]);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error(), Error::InvalidProgram);
  const std::string m = last_error_message();
  EXPECT_NE(m.find("node 'dq_w' (quantized_decomposed::dequantize_per_channel.default, model.py:"),
            std::string::npos)
      << m;
  EXPECT_NE(m.find("input 'w' i8[4, 3] has 3 channels along axis 1"), std::string::npos) << m;
  g = per_channel_graph(2, 4);
  ASSERT_FALSE(read_qdq(g, g.nodes()[0]).ok());
  EXPECT_NE(std::string(last_error_message()).find("axis 2 is out of range"), std::string::npos);
}

TEST(QdqTest, RangeDtypeAndScaleAreChecked) {
  GraphBuilder b;
  ValueId x = b.input("x", {2});
  ValueId q8 = b.input("q8", {2}, ScalarType::Char);
  auto node = [&](const char* op, ValueId in, double scale, int64_t lo, int64_t hi,
                  ScalarType dtype) {
    std::vector<NamedArgument> a = {arg("scale", Argument::floating(scale)),
                                    arg("zero_point", Argument::integer(0))};
    for (auto& r : range(lo, hi, dtype)) a.push_back(r);
    b.op(op, {{"input", in}}, "n" + std::to_string(b.graph().nodes().size()), {2}, a);
  };
  node("quantized_decomposed::quantize_per_tensor.default", x, 0.1, -200, 127, ScalarType::Char);
  node("quantized_decomposed::dequantize_per_tensor.default", q8, 0.1, 0, 255, ScalarType::Byte);
  node("quantized_decomposed::quantize_per_tensor.default", x, 0.0, -128, 127, ScalarType::Char);
  node("quantized_decomposed::quantize_per_tensor.default", q8, 0.1, -128, 127, ScalarType::Char);
  node("quantized_decomposed::quantize_per_tensor.default", x, 0.1, -128, 127, ScalarType::Long);
  const char* expected[] = {
      "quant range [-200, 127] does not fit int8 [-128, 127]",
      "input 'q8' is int8 but dtype says uint8",
      "scale 0.000000 is not positive and finite",
      "input 'q8' is int8; quantizing needs float32",
      "quantized dtype int64 is not supported",
  };
  const Graph& g = b.graph();
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    auto p = read_qdq(g, g.nodes()[i]);
    ASSERT_FALSE(p.ok()) << i;
    EXPECT_NE(std::string(last_error_message()).find(expected[i]), std::string::npos)
        << last_error_message();
  }
}

TEST(QdqTest, UnsupportedQuantizedOpNamesNodeAndLine) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  b.output(b.op("quantized_decomposed::quantize_per_token.default", {{"input", x}}, "qtok",
                {2, 3}));
  Graph g = b.take();
  EXPECT_TRUE(is_quantized_decomposed(g.nodes()[0]));
  EXPECT_FALSE(is_supported_qdq_op(g.nodes()[0].op));
  auto p = read_qdq(g, g.nodes()[0]);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.error(), Error::NotSupported);
  EXPECT_NE(std::string(last_error_message())
                .find("node 'qtok' (quantized_decomposed::quantize_per_token.default, model.py:10)"
                      ": quantized op not supported; Ember lowers quantize_per_tensor.default"),
            std::string::npos)
      << last_error_message();
}

}  // namespace
}  // namespace ember::aot
