// FoldBatchNormPass, FoldConstantPermutePass, TiedLinearPass, SquareAsMulPass and
// MeanAsLinearPass on hand-made graphs. Expected constants are
// worked out by hand: with var + eps chosen as perfect squares, s = gamma / sqrt(var + eps),
// w' = w * s and b' = (b - mean) * s + beta are exact in float.
#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"
#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"
#include "aot/passes/fold_batch_norm_pass.h"
#include "aot/passes/fold_constant_permute_pass.h"
#include "aot/passes/mean_as_linear_pass.h"
#include "aot/passes/square_as_mul_pass.h"
#include "aot/passes/tied_linear_pass.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

std::vector<float> floats(const Graph& g, const std::string& name) {
  const TensorSpec& s = g.value(g.find_value(name)).tensor;
  std::vector<float> out(s.constant->bytes.size() / 4);
  std::memcpy(out.data(), s.constant->bytes.data(), s.constant->bytes.size());
  return out;
}

std::vector<NamedArgument> conv_extra() {
  return {{"stride", Argument::int_list({1, 1}), false},
          {"padding", Argument::int_list({0, 0}), false},
          {"dilation", Argument::int_list({1, 1}), false},
          {"transposed", Argument::boolean(false), false},
          {"output_padding", Argument::int_list({0, 0}), false},
          {"groups", Argument::integer(1), false}};
}

// x[1,1,2,2] -> conv (2 output channels, 1x1, weight {2, 3}, bias `bias`) -> batch norm.
// Returns the batch norm's main output; `conv_out` gets the conv's.
ValueId conv_bn(GraphBuilder& b, ValueId x, ValueId bias, ValueId* conv_out) {
  ValueId w = b.parameter("w", {2, 1, 1, 1}, {2.f, 3.f});
  ValueId gamma = b.parameter("gamma", {2}, {1.f, 2.f});
  ValueId beta = b.parameter("beta", {2}, {0.5f, -1.f});
  ValueId mean = b.parameter("mean", {2}, {1.f, 4.f}, InputKind::Buffer);
  ValueId var = b.parameter("var", {2}, {3.f, 0.f}, InputKind::Buffer);  // + eps 1: 4, 1
  std::vector<NamedArgument> extra = conv_extra();
  extra.insert(extra.begin(), {"bias", bias == kNoValue ? Argument::none() : Argument::tensor(bias), false});
  ValueId c = b.op("aten::convolution.default", {{"input", x}, {"weight", w}}, "conv", {1, 2, 2, 2},
                   extra);
  *conv_out = c;
  ValueId y = b.op("aten::_native_batch_norm_legit_no_training.default",
                   {{"input", c}, {"weight", gamma}, {"bias", beta}, {"running_mean", mean},
                    {"running_var", var}},
                   "bn", {1, 2, 2, 2},
                   {{"momentum", Argument::floating(0.1), false},
                    {"eps", Argument::floating(1.0), false}});
  Graph& g = b.graph();
  for (const char* name : {"bn_unused_1", "bn_unused_2"}) {
    ValueId u = g.add_value({name, ValueKind::Tensor, contiguous_spec(ScalarType::Float, static_sizes({0})), {}, ""}).get();
    g.nodes().back().outputs.push_back(Argument::tensor(u));
  }
  return y;
}

TEST(FoldBatchNormPassTest, FoldsIntoBiaslessConvThroughBeta) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 1, 2, 2});
  ValueId c;
  ValueId y = conv_bn(b, x, kNoValue, &c);
  b.output(b.op("aten::relu.default", {{"self", y}}, "relu", {1, 2, 2, 2}));
  Graph g = b.take();
  ASSERT_EQ(FoldBatchNormPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%conv : f32[1, 2, 2, 2] = aten::convolution.default(input=%x, weight=%w, bias=%beta, "
            "stride=[1, 1], padding=[0, 0], dilation=[1, 1], transposed=False, "
            "output_padding=[0, 0], groups=1)\n"
            "%relu : f32[1, 2, 2, 2] = aten::relu.default(self=%conv)\n");
  // s = {1/2, 2/1}; w' = {2 * 0.5, 3 * 2}; b' = (0 - mean) * s + beta = {0, -9}.
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{1.f, 6.f}));
  EXPECT_EQ(floats(g, "beta"), (std::vector<float>{0.f, -9.f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(FoldBatchNormPassTest, FoldsIntoConvBias) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 1, 2, 2});
  ValueId cb = b.parameter("cb", {2}, {1.f, -1.f});
  ValueId c;
  b.output(conv_bn(b, x, cb, &c));
  Graph g = b.take();
  ASSERT_EQ(FoldBatchNormPass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(tensor_of(g.outputs()[0]), c);
  // b' = (b - mean) * s + beta = {(1 - 1) * 0.5 + 0.5, (-1 - 4) * 2 - 1}.
  EXPECT_EQ(floats(g, "cb"), (std::vector<float>{0.5f, -11.f}));
  EXPECT_EQ(floats(g, "beta"), (std::vector<float>{0.5f, -1.f}));  // untouched
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{1.f, 6.f}));
}

TEST(FoldBatchNormPassTest, KeepsBatchNormWhenConvOutputIsAlsoUsed) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 1, 2, 2});
  ValueId c;
  ValueId y = conv_bn(b, x, kNoValue, &c);
  b.output(y);
  b.output(c);
  Graph g = b.take();
  const std::string before = print_body(g);
  ASSERT_EQ(FoldBatchNormPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{2.f, 3.f}));
}

TEST(FoldConstantPermutePassTest, TransposesWeightOfAddmm) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  ValueId x = b.input("x", {1, 3});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 2},
                   {{"dims", Argument::int_list({1, 0}), false}});
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", t}}, "mm", {1, 2}));
  Graph g = b.take();
  ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), "%mm : f32[1, 2] = aten::mm.default(self=%x, mat2=%w)\n");
  EXPECT_EQ(g.value(w).tensor.to_string(), "f32[3, 2]");
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{1.f, 4.f, 2.f, 5.f, 3.f, 6.f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(FoldConstantPermutePassTest, Rank3AndNegativeDims) {
  GraphBuilder b;
  // in[x, y, z] = 4x + 2y + z; dims [2, 0, 1]: out[a, b, c] = in[b, c, a] = 4b + 2c + a.
  ValueId w = b.parameter("w", {2, 2, 2}, {0.f, 1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {2, 2, 2},
                   {{"dims", Argument::int_list({-1, 0, 1}), false}});
  b.output(b.op("aten::neg.default", {{"self", t}}, "neg", {2, 2, 2}));
  Graph g = b.take();
  ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{0.f, 2.f, 4.f, 6.f, 1.f, 3.f, 5.f, 7.f}));
}

TEST(FoldConstantPermutePassTest, SharedConstantGetsAPermutedCopyInputsStay) {
  // w is read as is (neg) and transposed (permute): the permute becomes a constant of its own.
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  ValueId x = b.input("x", {2, 3});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 2},
                   {{"dims", Argument::int_list({1, 0}), false}});
  ValueId u = b.op("aten::permute.default", {{"self", x}}, "permute_x", {3, 2},
                   {{"dims", Argument::int_list({1, 0}), false}});
  b.output(b.op("aten::add.Tensor", {{"self", t}, {"other", u}}, "add", {3, 2}));
  b.output(b.op("aten::neg.default", {{"self", w}}, "neg", {2, 3}));
  Graph g = b.take();
  ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 3u);  // permute_x, add, neg
  EXPECT_EQ(g.nodes()[0].name, "permute_x");
  EXPECT_EQ(tensor_of(g.nodes()[1].inputs[0].arg), t);
  EXPECT_EQ(g.value(t).tensor.to_string(), "f32[3, 2]");
  EXPECT_EQ(floats(g, "permute"), (std::vector<float>{1.f, 4.f, 2.f, 5.f, 3.f, 6.f}));
  EXPECT_EQ(floats(g, "w"), (std::vector<float>{1.f, 2.f, 3.f, 4.f, 5.f, 6.f}));  // untouched
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(FoldConstantPermutePassTest, TwoPermutesOfOneConstantShareOneCopy) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f});
  ValueId t1 = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 2},
                    {{"dims", Argument::int_list({1, 0}), false}});
  ValueId t2 = b.op("aten::permute.default", {{"self", w}}, "permute_1", {3, 2},
                    {{"dims", Argument::int_list({1, 0}), false}});
  b.output(b.op("aten::add.Tensor", {{"self", t1}, {"other", t2}}, "add", {3, 2}));
  Graph g = b.take();
  ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 1u);
  EXPECT_EQ(tensor_of(g.nodes()[0].inputs[0].arg), t1);
  EXPECT_EQ(tensor_of(g.nodes()[0].inputs[1].arg), t1);
  EXPECT_EQ(floats(g, "permute"), (std::vector<float>{1.f, 4.f, 2.f, 5.f, 3.f, 6.f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(TiedLinearPassTest, ProductWithATiedTransposeReadsTheConstantAsStored) {
  // w [4, 3] is an embedding table and, transposed, the output projection: mm(x, w^T) becomes
  // linear(x, w); the permute goes and FoldConstantPermutePass then has nothing to copy.
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, {1.f, 2.f, 3.f, 4.f, 5.f, 6.f, 7.f, 8.f, 9.f, 10.f, 11.f, 12.f});
  ValueId x = b.input("x", {2, 3});
  ValueId ids = b.input("ids", {2}, ScalarType::Long);
  b.output(b.op("aten::embedding.default", {{"weight", w}, {"indices", ids}}, "embedding", {2, 3}));
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 4},
                   {{"dims", Argument::int_list({1, 0}), false}});
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", t}}, "mm", {2, 4}));
  Graph g = b.take();
  ASSERT_EQ(TiedLinearPass().run(g), Error::Ok);
  ASSERT_EQ(FoldConstantPermutePass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 2u);  // embedding, linear
  const Node& lin = g.nodes()[1];
  EXPECT_EQ(lin.op.qualified(), "aten::linear.default");
  EXPECT_EQ(tensor_of(lin.find_input("input")->arg), x);
  EXPECT_EQ(tensor_of(lin.find_input("weight")->arg), w);
  EXPECT_EQ(lin.find_input("bias")->arg.kind, ArgKind::None);
  EXPECT_EQ(g.value(w).tensor.to_string(), "f32[4, 3]");
  EXPECT_EQ(floats(g, "w")[1], 2.f);  // untouched, no second copy
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

// x [1, 2, 3] -> view [2, 3] -> mm with the tied w^T -> view [1, 2, 4] (an N-D linear as
// decompose_linear writes it); `also_read_y2`: the 2-D product is also an output.
Graph tied_nd_linear(bool also_read_y2, ValueId* x_out = nullptr) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
  ValueId x = b.input("x", {1, 2, 3});
  if (x_out != nullptr) *x_out = x;
  ValueId ids = b.input("ids", {2}, ScalarType::Long);
  b.output(b.op("aten::embedding.default", {{"weight", w}, {"indices", ids}}, "embedding", {2, 3}));
  ValueId x2 = b.op("aten::view.default", {{"self", x}}, "view", {2, 3},
                    {{"size", Argument::int_list({-1, 3}), false}});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 4},
                   {{"dims", Argument::int_list({1, 0}), false}});
  ValueId y2 = b.op("aten::mm.default", {{"self", x2}, {"mat2", t}}, "mm", {2, 4});
  b.output(b.op("aten::view.default", {{"self", y2}}, "y", {1, 2, 4},
                {{"size", Argument::int_list({1, -1, 4}), false}}));
  if (also_read_y2) b.output(y2);
  return b.take();
}

TEST(TiedLinearPassTest, NdLinearReadsAndWritesItsOwnShapes) {
  ValueId x = kNoValue;
  Graph g = tied_nd_linear(false, &x);
  ASSERT_EQ(TiedLinearPass().run(g), Error::Ok);
  ASSERT_EQ(verify_graph(g), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(g.nodes().size(), 2u);  // embedding, linear: no views, no permute
  const Node& lin = g.nodes()[1];
  EXPECT_EQ(lin.op.qualified(), "aten::linear.default");
  EXPECT_EQ(tensor_of(lin.find_input("input")->arg), x);
  EXPECT_EQ(g.value(tensor_of(lin.outputs[0])).name, "y");
  EXPECT_EQ(tensor_of(g.outputs()[1]), tensor_of(lin.outputs[0]));
  EXPECT_EQ(g.value(tensor_of(lin.outputs[0])).tensor.to_string(), "f32[1, 2, 4]");

  Graph kept = tied_nd_linear(true);  // the 2-D product is read: the views stay
  ASSERT_EQ(TiedLinearPass().run(kept), Error::Ok);
  ASSERT_EQ(verify_graph(kept), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(kept.nodes().size(), 4u);  // embedding, view, linear, view
  EXPECT_EQ(kept.nodes()[2].op.qualified(), "aten::linear.default");
  EXPECT_EQ(kept.nodes()[3].op.qualified(), "aten::view.default");
}

TEST(TiedLinearPassTest, UntiedWeightIsLeftToTheFold) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
  ValueId x = b.input("x", {2, 3});
  ValueId t = b.op("aten::permute.default", {{"self", w}}, "permute", {3, 4},
                   {{"dims", Argument::int_list({1, 0}), false}});
  b.output(b.op("aten::mm.default", {{"self", x}, {"mat2", t}}, "mm", {2, 4}));
  Graph g = b.take();
  ASSERT_EQ(TiedLinearPass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 2u);
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::mm.default");
}

TEST(SquareAsMulPassTest, PowTwoBecomesMulOtherExponentsStay) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  b.output(b.op("aten::pow.Tensor_Scalar", {{"self", x}}, "sq", {2, 3},
                {{"exponent", Argument::integer(2), false}}));
  b.output(b.op("aten::pow.Tensor_Scalar", {{"self", x}}, "cube", {2, 3},
                {{"exponent", Argument::integer(3), false}}));
  Graph g = b.take();
  ASSERT_EQ(SquareAsMulPass().run(g), Error::Ok);
  EXPECT_EQ(g.nodes()[0].op.qualified(), "aten::mul.Tensor");
  EXPECT_EQ(tensor_of(g.nodes()[0].find_input("self")->arg), x);
  EXPECT_EQ(tensor_of(g.nodes()[0].find_input("other")->arg), x);
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::pow.Tensor_Scalar");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(MeanAsLinearPassTest, LastDimMeanBecomesLinearWithOneSharedRow) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2, 4});
  ValueId y = b.input("y", {3, 4});
  b.output(b.op("aten::mean.dim", {{"self", x}}, "m1", {1, 2, 1},
                {{"dim", Argument::int_list({-1}), false}, {"keepdim", Argument::boolean(true), false}}));
  b.output(b.op("aten::mean.dim", {{"self", y}}, "m2", {3, 1},
                {{"dim", Argument::int_list({1}), false}, {"keepdim", Argument::boolean(true), false}}));
  b.output(b.op("aten::mean.dim", {{"self", y}}, "m3", {4},
                {{"dim", Argument::int_list({0}), false}, {"keepdim", Argument::boolean(false), false}}));
  Graph g = b.take();
  ASSERT_EQ(MeanAsLinearPass().run(g), Error::Ok);
  ASSERT_EQ(g.nodes().size(), 3u);
  EXPECT_EQ(g.nodes()[0].op.qualified(), "aten::linear.default");
  EXPECT_EQ(g.nodes()[1].op.qualified(), "aten::linear.default");
  EXPECT_EQ(g.nodes()[2].op.qualified(), "aten::mean.dim");  // not the last dim
  const ValueId w = tensor_of(g.nodes()[0].find_input("weight")->arg);
  EXPECT_EQ(tensor_of(g.nodes()[1].find_input("weight")->arg), w);  // K = 4 twice: one row
  EXPECT_EQ(g.value(w).tensor.to_string(), "f32[1, 4]");
  EXPECT_EQ(floats(g, g.value(w).name), (std::vector<float>{0.25f, 0.25f, 0.25f, 0.25f}));
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

}  // namespace
}  // namespace ember::aot
