// DecomposeTrainingOpsPass on hand-made graphs; expected graphs written by hand from the
// decomposition rules (linear -> permute + addmm, relu6 -> hardtanh(0, 6), dropout alias,
// conv2d -> convolution with defaults expanded, max_pool2d -> max_pool2d_with_indices,
// batch_norm training=True rejected).
#include "aot/passes/decompose_training_ops_pass.h"

#include <gtest/gtest.h>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/printer.h"
#include "aot/ir/verifier.h"
#include "aot/ir/testing/graph_builder.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

TEST(DecomposeTrainingOpsPassTest, LinearBecomesPermuteAddmm) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
  ValueId bias = b.parameter("b", {4}, std::vector<float>(4, 0.f));
  ValueId x = b.input("x", {2, 3});
  ValueId y = b.op("aten::linear.default", {{"input", x}, {"weight", w}, {"bias", bias}}, "linear", {2, 4});
  b.output(y);
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%permute : f32[3, 4] = aten::permute.default(self=%w, dims=[1, 0])\n"
            "%linear : f32[2, 4] = aten::addmm.default(self=%b, mat1=%x, mat2=%permute)\n");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(DecomposeTrainingOpsPassTest, Rank3LinearIsViewedTo2d) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3}, std::vector<float>(12, 1.f));
  ValueId x = b.input("x", {2, 5, 3});
  b.output(b.op("aten::linear.default", {{"input", x}, {"weight", w}}, "linear", {2, 5, 4}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%permute : f32[3, 4] = aten::permute.default(self=%w, dims=[1, 0])\n"
            "%view : f32[10, 3] = aten::view.default(self=%x, size=[10, 3])\n"
            "%mm : f32[10, 4] = aten::mm.default(self=%view, mat2=%permute)\n"
            "%linear : f32[2, 5, 4] = aten::view.default(self=%mm, size=[2, 5, 4])\n");
}

TEST(DecomposeTrainingOpsPassTest, MaxPool2dGetsAnIndicesOutput) {
  GraphBuilder b;
  ValueId x = b.input("x", {1, 2, 4, 4});
  b.output(b.op("aten::max_pool2d.default", {{"self", x}}, "max_pool2d", {1, 2, 2, 2},
                {{"kernel_size", Argument::int_list({2, 2}), false},
                 {"stride", Argument::int_list({2, 2}), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%max_pool2d : f32[1, 2, 2, 2], %max_pool2d_indices : i64[1, 2, 2, 2] = "
            "aten::max_pool2d_with_indices.default(self=%x, kernel_size=[2, 2], stride=[2, 2])\n");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(DecomposeTrainingOpsPassTest, Relu6AndDropout) {
  GraphBuilder b;
  ValueId x = b.input("x", {4});
  ValueId r = b.op("aten::relu6.default", {{"self", x}}, "relu6", {4});
  ValueId d = b.op("aten::dropout.default", {{"input", r}}, "dropout", {4},
                   {{"p", Argument::floating(0.5), false}, {"train", Argument::boolean(false), false}});
  b.output(b.op("aten::neg.default", {{"self", d}}, "neg", {4}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%relu6 : f32[4] = aten::hardtanh.default(self=%x, min_val=0.0, max_val=6.0)\n"
            "%neg : f32[4] = aten::neg.default(self=%relu6)\n");
}

TEST(DecomposeTrainingOpsPassTest, DropoutOfInputAsOutputBecomesClone) {
  GraphBuilder b;
  ValueId x = b.input("x", {4});
  b.output(b.op("aten::dropout.default", {{"input", x}}, "dropout", {4},
                {{"p", Argument::floating(0.5), false}, {"train", Argument::boolean(false), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), "%dropout : f32[4] = aten::clone.default(self=%x)\n");
}

TEST(DecomposeTrainingOpsPassTest, Conv2dGetsConvolutionDefaults) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 1, 3, 3}, std::vector<float>(18, 1.f));
  ValueId x = b.input("x", {1, 1, 5, 5});
  b.output(b.op("aten::conv2d.default", {{"input", x}, {"weight", w}}, "conv2d", {1, 2, 3, 3},
                {{"stride", Argument::int_list({2}), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%conv2d : f32[1, 2, 3, 3] = aten::convolution.default(input=%x, weight=%w, bias=None, "
            "stride=[2, 2], padding=[0, 0], dilation=[1, 1], transposed=False, output_padding=[0, 0], "
            "groups=1)\n");
}

// Video nets (issue #30): conv3d gets three spatial dims of defaults; a global
// adaptive_avg_pool3d is a mean over the last three dims, any other size the core op.
TEST(DecomposeTrainingOpsPassTest, Conv3dAndAdaptiveAvgPool3d) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {2, 1, 1, 3, 3}, std::vector<float>(18, 1.f));
  ValueId x = b.input("x", {1, 1, 2, 5, 5});
  ValueId c = b.op("aten::conv3d.default", {{"input", x}, {"weight", w}}, "conv3d", {1, 2, 2, 3, 3},
                   {{"padding", Argument::int_list({0, 1, 1}), false},
                    {"stride", Argument::int_list({2}), false}});
  ValueId p = b.op("aten::adaptive_avg_pool3d.default", {{"self", c}}, "pool", {1, 2, 1, 1, 1},
                   {{"output_size", Argument::int_list({1, 1, 1}), false}});
  b.output(b.op("aten::adaptive_avg_pool3d.default", {{"self", c}}, "pool2", {1, 2, 1, 2, 2},
                {{"output_size", Argument::int_list({1, 2, 2}), false}}));
  b.output(p);
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%conv3d : f32[1, 2, 2, 3, 3] = aten::convolution.default(input=%x, weight=%w, bias=None, "
            "stride=[2, 2, 2], padding=[0, 1, 1], dilation=[1, 1, 1], transposed=False, "
            "output_padding=[0, 0, 0], groups=1)\n"
            "%pool : f32[1, 2, 1, 1, 1] = aten::mean.dim(self=%conv3d, dim=[-1, -2, -3], keepdim=True)\n"
            "%pool2 : f32[1, 2, 1, 2, 2] = aten::_adaptive_avg_pool3d.default(self=%conv3d, "
            "output_size=[1, 2, 2])\n");
}

// torch.min(a, b) (T5's relative position buckets) is the elementwise minimum.
TEST(DecomposeTrainingOpsPassTest, MinOtherIsMinimum) {
  GraphBuilder b;
  ValueId x = b.input("x", {3});
  ValueId y = b.input("y", {3});
  b.output(b.op("aten::min.other", {{"self", x}, {"other", y}}, "min", {3}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), "%min : f32[3] = aten::minimum.default(self=%x, other=%y)\n");
}

size_t count_of(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// gru.input over 2 steps (batch_first, 1 layer): one addmm for the input projection of both
// steps, one per step for the hidden state, the gates' sigmoid/tanh per step, the steps
// concatenated into the output and h_n stacked; an LSTM the same with 4 gates and c.
TEST(DecomposeTrainingOpsPassTest, GruAndLstmAreUnrolled) {
  for (const bool lstm : {false, true}) {
    const int64_t gates = lstm ? 4 : 3;
    GraphBuilder b;
    ValueId w_ih = b.parameter("w_ih", {gates * 2, 3}, std::vector<float>(gates * 6, 0.1f));
    ValueId w_hh = b.parameter("w_hh", {gates * 2, 2}, std::vector<float>(gates * 4, 0.1f));
    ValueId b_ih = b.parameter("b_ih", {gates * 2}, std::vector<float>(gates * 2, 0.f));
    ValueId b_hh = b.parameter("b_hh", {gates * 2}, std::vector<float>(gates * 2, 0.f));
    ValueId x = b.input("x", {1, 2, 3});
    ValueId h0 = b.input("h0", {1, 1, 2});
    ValueId c0 = b.input("c0", {1, 1, 2});
    std::vector<NamedArgument> extra = {
        {"params", Argument::tensor_list({w_ih, w_hh, b_ih, b_hh}), false},
        {"has_biases", Argument::boolean(true), false}, {"num_layers", Argument::integer(1), false},
        {"dropout", Argument::floating(0.0), false}, {"train", Argument::boolean(false), false},
        {"bidirectional", Argument::boolean(false), false},
        {"batch_first", Argument::boolean(true), false}};
    if (lstm) extra.insert(extra.begin(), {"hx", Argument::tensor_list({h0, c0}), false});
    std::vector<std::pair<std::string, ValueId>> tensors = {{"input", x}};
    if (!lstm) tensors.push_back({"hx", h0});
    ValueId out = b.op(lstm ? "aten::lstm.input" : "aten::gru.input", tensors, "rnn", {1, 2, 2}, extra);
    Graph& g = b.graph();
    for (int k = 0; k < (lstm ? 2 : 1); ++k) {
      auto v = add_tensor_value(g, k == 0 ? "h_n" : "c_n", contiguous_spec(ScalarType::Float, {SymInt::of(1), SymInt::of(1), SymInt::of(2)}));
      ASSERT_TRUE(v.ok());
      g.nodes().back().outputs.push_back(Argument::tensor(*v));
    }
    b.output(out);
    Graph graph = b.take();
    ASSERT_EQ(DecomposeTrainingOpsPass().run(graph), Error::Ok);
    const std::string body = print_body(graph);
    EXPECT_EQ(count_of(body, "aten::gru"), 0u) << body;
    EXPECT_EQ(count_of(body, "aten::lstm"), 0u) << body;
    EXPECT_EQ(count_of(body, "aten::addmm.default"), 3u) << body;
    EXPECT_EQ(count_of(body, "aten::tanh.default"), lstm ? 4u : 2u) << body;
    EXPECT_EQ(count_of(body, "aten::sigmoid.default"), lstm ? 6u : 4u) << body;
    EXPECT_EQ(count_of(body, "aten::cat.default"), lstm ? 3u : 2u) << body;
  }
}

TEST(DecomposeTrainingOpsPassTest, TrainingBatchNormIsRejectedWithSourceLine) {
  GraphBuilder b;
  ValueId m = b.parameter("m", {2}, {0.f, 0.f}, InputKind::Buffer);
  ValueId v = b.parameter("v", {2}, {1.f, 1.f}, InputKind::Buffer);
  ValueId x = b.input("x", {1, 2, 2, 2});
  b.output(b.op("aten::batch_norm.default", {{"input", x}, {"running_mean", m}, {"running_var", v}},
                "bn", {1, 2, 2, 2}, {{"training", Argument::boolean(true), false}}));
  Graph g = b.take();
  Error st = DecomposeTrainingOpsPass().run(g);
  ASSERT_EQ(st, Error::NotSupported);
  EXPECT_NE(std::string(last_error_message()).find("node 'bn'"), std::string::npos) << std::string(last_error_message());
  EXPECT_NE(std::string(last_error_message()).find("model.py:10"), std::string::npos) << std::string(last_error_message());
  EXPECT_NE(std::string(last_error_message()).find("eval()"), std::string::npos) << std::string(last_error_message());
}

}  // namespace
}  // namespace ember::aot

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

// MaxViT's attention: "bhid,bhjd->bhij" is batch (b, h), left i, right j, contracted d:
// x is already [batch, left, contracted]; y is permuted to [b, h, d, j]; one bmm.
TEST(DecomposeTrainingOpsPassTest, EinsumBecomesBmm) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3, 4, 5});
  ValueId y = b.input("y", {2, 3, 6, 5});
  Argument tensors = Argument::tensor_list({x, y});
  b.output(b.op("aten::einsum.default", {}, "einsum", {2, 3, 4, 6},
                {{"equation", Argument::string("b h i d, b h j d -> b h i j"), false},
                 {"tensors", tensors, false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%einsum_view : f32[6, 4, 5] = aten::view.default(self=%x, size=[6, 4, 5])\n"
            "%einsum_perm : f32[2, 3, 5, 6] = aten::permute.default(self=%y, dims=[0, 1, 3, 2])\n"
            "%einsum_view_1 : f32[6, 5, 6] = aten::view.default(self=%einsum_perm, size=[6, 5, 6])\n"
            "%einsum_bmm : f32[6, 4, 6] = aten::bmm.default(self=%einsum_view, mat2=%einsum_view_1)\n"
            "%einsum : f32[2, 3, 4, 6] = aten::view.default(self=%einsum_bmm, size=[2, 3, 4, 6])\n");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

TEST(DecomposeTrainingOpsPassTest, EinsumDiagonalIsNotSupported) {
  GraphBuilder b;
  ValueId x = b.input("x", {3, 3});
  b.output(b.op("aten::einsum.default", {}, "einsum", {3},
                {{"equation", Argument::string("ii->i"), false},
                 {"tensors", Argument::tensor_list({x}), false}}));
  Graph g = b.take();
  EXPECT_EQ(DecomposeTrainingOpsPass().run(g), Error::NotSupported);
}

// chunk(x[7], 3) is split(x, ceil(7 / 3) = 3): pieces 3, 3, 1.
TEST(DecomposeTrainingOpsPassTest, ChunkBecomesSplit) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 7});
  b.output(b.op("aten::chunk.default", {{"self", x}}, "chunk", {2, 3},
                {{"chunks", Argument::integer(3), false}, {"dim", Argument::integer(-1), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%chunk : f32[2, 3] = aten::split.Tensor(self=%x, split_size=3, dim=1)\n");
}

// ||x||_2 over the last dim = sqrt(sum(x * x)); ord inf = amax(abs(x)).
TEST(DecomposeTrainingOpsPassTest, VectorNorm) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 4});
  b.output(b.op("aten::linalg_vector_norm.default", {{"self", x}}, "norm", {2, 1},
                {{"ord", Argument::floating(2.0), false}, {"dim", Argument::int_list({-1}), false},
                 {"keepdim", Argument::boolean(true), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%norm_mul : f32[2, 4] = aten::mul.Tensor(self=%x, other=%x)\n"
            "%norm_sum : f32[2, 1] = aten::sum.dim_IntList(self=%norm_mul, dim=[-1], keepdim=True)\n"
            "%norm : f32[2, 1] = aten::sqrt.default(self=%norm_sum)\n");
  GraphBuilder b3;
  ValueId x3 = b3.input("x", {2, 4});
  b3.output(b3.op("aten::linalg_vector_norm.default", {{"self", x3}}, "norm", {},
                  {{"ord", Argument::floating(3.0), false}}));
  Graph g3 = b3.take();
  EXPECT_EQ(DecomposeTrainingOpsPass().run(g3), Error::NotSupported);
}

}  // namespace
}  // namespace ember::aot

namespace ember::aot {
namespace {

TEST(DecomposeTrainingOpsPassTest, VideoOpsBecomeTheir3dCoreForms) {
  GraphBuilder b;
  ValueId w = b.parameter("w", {4, 3, 3, 3, 3}, std::vector<float>(324, 1.f));
  ValueId x = b.input("x", {1, 3, 4, 6, 6});
  ValueId c = b.op("aten::conv3d.default", {{"input", x}, {"weight", w}}, "conv3d",
                   {1, 4, 4, 6, 6}, {{"padding", Argument::int_list({1}), false}});
  ValueId p = b.op("aten::max_pool3d.default", {{"self", c}}, "max_pool3d", {1, 4, 2, 3, 3},
                   {{"kernel_size", Argument::int_list({2, 2, 2}), false}});
  b.output(b.op("aten::adaptive_avg_pool3d.default", {{"self", p}}, "pool", {1, 4, 1, 1, 1},
                {{"output_size", Argument::int_list({1}), false}}));
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g),
            "%conv3d : f32[1, 4, 4, 6, 6] = aten::convolution.default(input=%x, weight=%w, "
            "bias=None, stride=[1, 1, 1], padding=[1, 1, 1], dilation=[1, 1, 1], "
            "transposed=False, output_padding=[0, 0, 0], groups=1)\n"
            "%max_pool3d : f32[1, 4, 2, 3, 3], %max_pool3d_indices : i64[1, 4, 2, 3, 3] = "
            "aten::max_pool3d_with_indices.default(self=%conv3d, kernel_size=[2, 2, 2])\n"
            "%pool : f32[1, 4, 1, 1, 1] = aten::mean.dim(self=%max_pool3d, dim=[-1, -2, -3], "
            "keepdim=True)\n");
  EXPECT_EQ(verify_graph(g), Error::Ok);
}

// sym_stride / sym_storage_offset leave no node: their SymInt output becomes a constant (the
// stride in the tensor's dim order), and a stride over a symbolic inner size is refused.
TEST(DecomposeTrainingOpsPassTest, SymStrideAndStorageOffsetBecomeConstants) {
  for (const int64_t dim : {0, 1, -1}) {
    GraphBuilder b;
    ValueId x = b.input("x", {2, 3, 5});
    Graph& g = b.graph();
    Value sym;
    sym.name = "stride";
    sym.kind = ValueKind::SymInt;
    sym.sym.is_static = false;
    sym.sym.text = "s9";
    ValueId s = g.add_value(std::move(sym)).get();
    Argument out;
    out.kind = ArgKind::SymInt;
    out.values = {s};
    g.nodes().push_back(make_op_node("aten", "sym_stride", "int",
                                     {{"self", Argument::tensor(x), false},
                                      {"dim", Argument::integer(dim), false}},
                                     {out}, Node()));
    ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
    EXPECT_TRUE(g.nodes().empty());
    EXPECT_TRUE(g.value(s).sym.is_static);
    EXPECT_EQ(g.value(s).sym.value, dim == 0 ? 15 : dim == 1 ? 5 : 1) << dim;
  }
  GraphBuilder b;
  ValueId x = b.input("x", {2, 3});
  Graph& g = b.graph();
  g.value(x).tensor.sizes[1] = SymInt();
  g.value(x).tensor.sizes[1].is_static = false;
  g.value(x).tensor.sizes[1].text = "s0";
  Value sym;
  sym.name = "stride";
  sym.kind = ValueKind::SymInt;
  ValueId s = g.add_value(std::move(sym)).get();
  Argument out;
  out.kind = ArgKind::SymInt;
  out.values = {s};
  g.nodes().push_back(make_op_node("aten", "sym_stride", "int",
                                   {{"self", Argument::tensor(x), false},
                                    {"dim", Argument::integer(0), false}},
                                   {out}, Node()));
  EXPECT_EQ(DecomposeTrainingOpsPass().run(g), Error::NotSupported);
}

}  // namespace
}  // namespace ember::aot

namespace ember::aot {
namespace {

// stft (its centring pad is a node of its own) -> unfold, window product, _fft_r2c over the
// last dim, permute to (freq, frame); hann_window -> 0.5 - 0.5 cos(2 pi n / N).
TEST(DecomposeTrainingOpsPassTest, StftBecomesFramesWindowRealFftPermute) {
  GraphBuilder b;
  ValueId x = b.input("x", {2, 464});
  ValueId w = b.op("aten::hann_window.default", {}, "window", {64},
                   {{"window_length", Argument::integer(64), false}});
  ValueId s = b.op("aten::stft.default", {{"self", x}, {"window", w}}, "stft", {2, 33, 26},
                   {{"n_fft", Argument::integer(64), false},
                    {"hop_length", Argument::integer(16), false},
                    {"return_complex", Argument::boolean(true), false}});
  b.graph().value(s).tensor.dtype = ScalarType::ComplexFloat;
  b.output(s);
  Graph g = b.take();
  ASSERT_EQ(DecomposeTrainingOpsPass().run(g), Error::Ok);
  const std::string body = print_body(g);
  EXPECT_NE(body.find("aten::arange.start_step(start=0, end=64, step=1, dtype=f32)"),
            std::string::npos) << body;
  EXPECT_NE(body.find("aten::cos.default"), std::string::npos) << body;
  EXPECT_NE(body.find("%stft_frames : f32[2, 26, 64] = aten::unfold.default(self=%x, "
                      "dimension=-1, size=64, step=16)"),
            std::string::npos) << body;
  EXPECT_NE(body.find("%stft_spectrum : c64[2, 26, 33] = aten::_fft_r2c.default("
                      "self=%stft_windowed, dim=[2], normalization=0, onesided=True)"),
            std::string::npos) << body;
  EXPECT_NE(body.find("%stft : c64[2, 33, 26] = aten::permute.default(self=%stft_spectrum, "
                      "dims=[0, 2, 1])"),
            std::string::npos) << body;
}

TEST(DecomposeTrainingOpsPassTest, StftWithoutComplexResultIsRefused) {
  GraphBuilder b;
  ValueId x = b.input("x", {400});
  b.output(b.op("aten::stft.default", {{"self", x}}, "stft", {33, 26, 2},
                {{"n_fft", Argument::integer(64), false},
                 {"return_complex", Argument::boolean(false), false}}));
  Graph g = b.take();
  EXPECT_EQ(DecomposeTrainingOpsPass().run(g), Error::NotSupported);
}

}  // namespace
}  // namespace ember::aot
