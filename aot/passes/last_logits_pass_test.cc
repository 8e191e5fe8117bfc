// LastLogitsPass on hand-made decoder heads with a symbolic sequence length: the slice before
// the head and the [B, 1, vocab] output, the tied-head and quantized-head passes still making
// one linear of the sliced row, and the graphs it leaves alone or refuses. The numerics (the
// last row of the full-logits program, greedy tokens) are checked on lowered fixture decoders
// by tests/llm:llm_last_logits_test.
#include "aot/passes/last_logits_pass.h"

#include <gtest/gtest.h>

#include <string>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/quantize_linear_pass.h"
#include "aot/passes/tied_linear_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

SymInt seq() {
  SymInt s;
  s.is_static = false;
  s.expr = "Symbol('s0', integer=True, positive=True)";
  s.text = "s0";
  s.range = SymRange{1, 16};
  return s;
}

// A decoder's tail as to_edge leaves it: h f32[1, s0, 32] -> view [-1, 32] -> mm with the
// transposed [64, 32] matrix -> view [1, -1, 64] = the logits. `tied`: the embedding reads
// the matrix too. `static_len`: s0 replaced by that static length.
Graph head(bool tied, int64_t static_len = 0) {
  GraphBuilder b;
  std::vector<float> wv(64 * 32);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = float(int(i % 13) - 6) / 8.f;
  ValueId w = b.parameter("w", {64, 32}, wv);
  ValueId tokens = b.input("tokens", {1, 3}, ScalarType::Long);
  ValueId h = tied ? b.op("aten::embedding.default", {{"weight", w}, {"indices", tokens}}, "h", {1, 3, 32})
                   : b.input("h", {1, 3, 32});
  ValueId wt = b.op("aten::permute.default", {{"self", w}}, "wt", {32, 64},
                    {{"dims", Argument::int_list({1, 0}), false}});
  ValueId x2 = b.op("aten::view.default", {{"self", h}}, "x2", {3, 32},
                    {{"size", Argument::int_list({-1, 32}), false}});
  ValueId y2 = b.op("aten::mm.default", {{"self", x2}, {"mat2", wt}}, "y2", {3, 64});
  ValueId y = b.op("aten::view.default", {{"self", y2}}, "logits", {1, 3, 64},
                   {{"size", Argument::int_list({1, -1, 64}), false}});
  b.output(y);
  Graph g = b.take();
  const SymInt t = static_len > 0 ? SymInt::of(static_len) : seq();
  if (static_len == 0) g.range_constraints()["s0"] = SymRange{1, 16};
  g.value(tokens).tensor.sizes[1] = t;
  g.value(h).tensor.sizes[1] = t;
  g.value(x2).tensor.sizes[0] = t;
  g.value(y2).tensor.sizes[0] = t;
  g.value(y).tensor.sizes[1] = t;
  return g;
}

std::string output_shape(const Graph& g) {
  return g.value(tensor_of(g.outputs().back())).tensor.to_string();
}

TEST(LastLogitsPassTest, SlicesTheLastPositionBeforeTheHead) {
  Graph g = head(/*tied=*/false);
  ASSERT_EQ(LastLogitsPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g),
            "%wt : f32[32, 64] = aten::permute.default(self=%w, dims=[1, 0])\n"
            "%h_last : f32[1, 1, 32] = aten::slice.Tensor(self=%h, dim=1, start=-1, "
            "end=9223372036854775807, step=1)\n"
            "%x2 : f32[1, 32] = aten::view.default(self=%h_last, size=[1, 32])\n"
            "%y2 : f32[1, 64] = aten::mm.default(self=%x2, mat2=%wt)\n"
            "%logits : f32[1, 1, 64] = aten::view.default(self=%y2, size=[1, 1, 64])\n");
  EXPECT_EQ(output_shape(g), "f32[1, 1, 64]");
}

TEST(LastLogitsPassTest, TiedHeadBecomesOneLinearOfTheLastRow) {
  Graph g = head(/*tied=*/true);
  ASSERT_EQ(LastLogitsPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(TiedLinearPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g),
            "%h : f32[1, s0, 32] = aten::embedding.default(weight=%w, indices=%tokens)\n"
            "%h_last : f32[1, 1, 32] = aten::slice.Tensor(self=%h, dim=1, start=-1, "
            "end=9223372036854775807, step=1)\n"
            "%logits : f32[1, 1, 64] = aten::linear.default(input=%h_last, weight=%w, bias=None)\n");
}

TEST(LastLogitsPassTest, QuantizedHeadBecomesOneQuantizedLinearOfTheLastRow) {
  Graph g = head(/*tied=*/false);
  ASSERT_EQ(LastLogitsPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(QuantizeLinearPass(32).run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(g.nodes().size(), 2u) << print_body(g);
  EXPECT_EQ(g.nodes()[0].op.qualified(), "aten::slice.Tensor");
  const Node& q = g.nodes()[1];
  EXPECT_EQ(q.op.qualified(), "ember_quantized::linear_8da4w.default");
  EXPECT_EQ(tensor_of(q.find_input("input")->arg), tensor_of(g.nodes()[0].outputs[0]));
  EXPECT_EQ(output_shape(g), "f32[1, 1, 64]");
}

TEST(LastLogitsPassTest, OnePositionAlreadyStays) {
  Graph g = head(/*tied=*/false, /*static_len=*/1);
  const std::string before = print_body(g);
  ASSERT_EQ(LastLogitsPass().run(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(print_body(g), before);
}

TEST(LastLogitsPassTest, StaticLengthIsSlicedToo) {
  Graph g = head(/*tied=*/false, /*static_len=*/5);
  ASSERT_EQ(LastLogitsPass().run(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(output_shape(g), "f32[1, 1, 64]");
}

TEST(LastLogitsPassTest, AGraphWithoutAHeadIsRefusedNamingItsOutputs) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  b.output(b.op("aten::relu.default", {{"self", x}}, "relu", {2, 3}));
  Graph g = b.take();
  EXPECT_EQ(LastLogitsPass().run(g), Error::InvalidArgument);
  const std::string msg = runtime::last_error_message();
  EXPECT_NE(msg.find("last_logits"), std::string::npos) << msg;
  EXPECT_NE(msg.find("%relu f32[2, 3]"), std::string::npos) << msg;
}

TEST(LastLogitsPassTest, AHeadWhoseRowsAreReadElsewhereIsNotAHead) {
  // The [s0, 64] product is also a graph output: slicing would change it, so no head is found.
  Graph g = head(/*tied=*/false);
  ValueId y2 = g.find_value("y2");
  g.outputs().push_back(Argument::tensor(y2));
  g.signature().outputs.push_back({OutputKind::UserOutput, "y2", ""});
  EXPECT_EQ(LastLogitsPass().run(g), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::aot
