// QuantizeLinearPass on hand-made graphs, with the quantized bytes worked out by hand.
#include "aot/passes/quantize_linear_pass.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;

std::vector<float> floats(const Graph& g, ValueId v) {
  const TensorSpec& s = g.value(v).tensor;
  std::vector<float> out(s.constant->bytes.size() / 4);
  std::memcpy(out.data(), s.constant->bytes.data(), s.constant->bytes.size());
  return out;
}

ValueId transpose(GraphBuilder& b, ValueId w, int64_t n, int64_t k) {
  return b.op("aten::permute.default", {{"self", w}}, "permute", {k, n},
              {{"dims", Argument::int_list({1, 0}), false}});
}

TEST(QuantizeLinearPassTest, Int8PerChannelInPlace) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 4}, {1.f, 2.f, 3.f, 4.f, -8.f, 0.f, 0.f, 2.f});
  ValueId x = b.input("x", {3, 4});
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", transpose(b, w, 2, 4)}}, "mm", {3, 2}));
  Graph g = b.take();
  ASSERT_EQ(QuantizeLinearPass(0).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u);  // the permute went
  const Node& n = g.nodes()[0];
  EXPECT_EQ(n.op.qualified(), "ember_quantized::linear_8da8w.default");
  EXPECT_EQ(n.name, "mm");
  EXPECT_EQ(tensor_of(n.find_input("input")->arg), x);
  EXPECT_EQ(tensor_of(n.find_input("weight")->arg), w);  // replaced in place
  EXPECT_EQ(n.find_input("bias")->arg.kind, ArgKind::None);
  EXPECT_EQ(g.value(w).tensor.to_string(), "i8[2, 4]");
  // Row 0: s = 4/127, w * 127 / 4 = 31.75, 63.5, 95.25, 127. Row 1: s = 8/127: -127, 0, 0, 31.75.
  const std::vector<uint8_t>& q = g.value(w).tensor.constant->bytes;
  EXPECT_EQ(std::vector<int8_t>(q.begin(), q.end()),
            (std::vector<int8_t>{32, 64, 95, 127, -127, 0, 0, 32}));
  const ValueId s = tensor_of(n.find_input("weight_scales")->arg);
  EXPECT_EQ(floats(g, s), (std::vector<float>{4.f / 127.f, 8.f / 127.f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(QuantizeLinearPassTest, Int4BlockLlamaCppRounding) {
  // One row of 32: w[c] = c - 16. The value of largest magnitude is -16, so d = -16 / -8 = 2 and
  // q = round((c - 16) / 2) (halves away from zero), clamped to [-8, 7].
  std::vector<float> wv(32);
  for (int c = 0; c < 32; ++c) wv[size_t(c)] = float(c - 16);
  GraphBuilder b;
  ValueId w = b.parameter("w", {1, 32}, wv);
  ValueId bias = b.parameter("bias", {1}, {0.5f});
  ValueId x = b.input("x", {2, 5, 32});
  b.output(b.op("aten::linear.default", {{"input", x}, {"weight", w}, {"bias", bias}}, "linear",
                {2, 5, 1}));
  Graph g = b.take();
  ASSERT_EQ(QuantizeLinearPass(32).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u);
  const Node& n = g.nodes()[0];
  EXPECT_EQ(n.op.qualified(), "ember_quantized::linear_8da4w.default");
  EXPECT_EQ(n.find_input("group_size")->arg.i, 32);
  EXPECT_EQ(tensor_of(n.find_input("bias")->arg), bias);
  EXPECT_EQ(g.value(w).tensor.to_string(), "u8[1, 16]");
  const std::vector<uint8_t>& q = g.value(w).tensor.constant->bytes;
  // byte i: (q[i] + 8) | (q[i + 16] + 8) << 4.
  EXPECT_EQ(q[0], 0x80);   // q0 = -8, q16 = 0
  EXPECT_EQ(q[1], 0x90);   // q1 = round(-7.5) = -8, q17 = round(0.5) = 1
  EXPECT_EQ(q[8], 0xc4);   // q8 = -4, q24 = 4
  EXPECT_EQ(q[15], 0xf7);  // q15 = round(-0.5) = -1, q31 = round(7.5) = 8 -> 7
  const ValueId s = tensor_of(n.find_input("weight_scales")->arg);
  EXPECT_EQ(g.value(s).tensor.to_string(), "f32[1, 1]");
  EXPECT_EQ(floats(g, s), (std::vector<float>{2.f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(QuantizeLinearPassTest, NdLinearLosesItsViews) {
  // x [1, 3, 4] -> view [3, 4] -> mm -> view [1, 3, 2]: one quantized linear of x writing the
  // output; a second reader of the 2-D product keeps both views.
  for (bool also_read : {false, true}) {
    SCOPED_TRACE(also_read);
    GraphBuilder b;
    ValueId w = b.parameter("w", {2, 4}, {1.f, 2.f, 3.f, 4.f, -8.f, 0.f, 0.f, 2.f});
    ValueId x = b.input("x", {1, 3, 4});
    ValueId x2 = b.op("aten::view.default", {{"self", x}}, "view", {3, 4},
                      {{"size", Argument::int_list({-1, 4}), false}});
    ValueId y2 = b.op("aten::mm.default", {{"self", x2}, {"mat2", transpose(b, w, 2, 4)}}, "mm", {3, 2});
    ValueId y = b.op("aten::view.default", {{"self", y2}}, "y", {1, 3, 2},
                     {{"size", Argument::int_list({1, -1, 2}), false}});
    b.output(y);
    if (also_read) b.output(y2);
    Graph g = b.take();
    ASSERT_EQ(QuantizeLinearPass(0).run(g), Error::Ok);
    ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
    ASSERT_EQ(g.nodes().size(), also_read ? 3u : 1u);
    const Node& q = g.nodes()[also_read ? 1 : 0];
    EXPECT_EQ(q.op.qualified(), "ember_quantized::linear_8da8w.default");
    EXPECT_EQ(tensor_of(q.find_input("input")->arg), also_read ? x2 : x);
    EXPECT_EQ(tensor_of(q.outputs[0]), also_read ? y2 : y);
  }
}

TEST(QuantizeLinearPassTest, TiedWeightKeepsItsFloatCopy) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 32}, std::vector<float>(128, 0.25f));
  ValueId ids = b.input("ids", {2}, ScalarType::Long);
  ValueId x = b.input("x", {2, 32});
  b.output(b.op("aten::embedding.default", {{"weight", w}, {"indices", ids}}, "embedding", {2, 32}));
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", transpose(b, w, 4, 32)}}, "mm", {2, 4}));
  Graph g = b.take();
  ASSERT_EQ(QuantizeLinearPass(0).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 2u);
  const Node& n = g.nodes()[1];
  EXPECT_EQ(n.op.qualified(), "ember_quantized::linear_8da8w.default");
  const ValueId q = tensor_of(n.find_input("weight")->arg);
  EXPECT_NE(q, w);
  EXPECT_EQ(g.value(w).tensor.to_string(), "f32[4, 32]");  // the embedding still reads floats
  EXPECT_EQ(g.value(q).tensor.to_string(), "i8[4, 32]");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(QuantizeLinearPassTest, LeavesWhatItCannotQuantize) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 48}, std::vector<float>(96, 1.f));  // 48: no block of 32
  ValueId x = b.input("x", {1, 48});
  ValueId y = b.input("y", {48, 2});                                   // not a constant
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", transpose(b, w, 2, 48)}}, "mm", {1, 2}));
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", y}}, "mm2", {1, 2}));
  Graph g = b.take();
  ASSERT_EQ(QuantizeLinearPass(32).run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 3u);
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::mm.default");
  EXPECT_EQ(g.nodes()[2].op.qualified(), "aten::mm.default");
  EXPECT_EQ(QuantizeLinearPass(48).run(g), Error::InvalidArgument);
  // The same graph with int8 weights: the constant product is quantized, the other is not.
  ASSERT_EQ(QuantizeLinearPass(0).run(g), Error::Ok);
  EXPECT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.nodes()[0].op.qualified(), "ember_quantized::linear_8da8w.default");
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::mm.default");
}

}  // namespace
}  // namespace ember::aot
