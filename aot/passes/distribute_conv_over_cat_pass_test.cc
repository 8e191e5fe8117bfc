// DistributeConvOverCatPass on hand-made graphs shaped like SqueezeNet's fire-module joins.
// Numerics against PyTorch: tests/xnnpack_aot (Squeezenet), which lowers with this pass.
#include "aot/passes/distribute_conv_over_cat_pass.h"

#include <gtest/gtest.h>

#include <cstring>

#include "aot/ir/testing/graph_builder.h"
#include "aot/ir/verifier.h"

namespace ember::aot {
namespace {

using testing::GraphBuilder;
using testing::print_body;

NamedArgument ints(const char* name, std::vector<int64_t> v) { return {name, Argument::int_list(std::move(v)), false}; }

std::vector<NamedArgument> conv_args() {
  return {ints("stride", {1, 1}), ints("padding", {0, 0}), ints("dilation", {1, 1}),
          {"transposed", Argument::boolean(false), false}, ints("output_padding", {0, 0}),
          {"groups", Argument::integer(1), false}};
}

// a [1,2,4,4], b [1,3,4,4] -> cat dim 1 -> [max_pool2d 2x2] -> conv 1x1 (5 -> 2, weight
// w[o][i] = 10 * o + i, bias) -> relu. `extra_use`: the cat is a graph output too.
Graph fire_join(bool pool, bool extra_use) {
  GraphBuilder b;
  std::vector<float> w(10);
  for (int o = 0; o < 2; ++o) {
    for (int i = 0; i < 5; ++i) w[size_t(o * 5 + i)] = float(10 * o + i);
  }
  ValueId wv = b.parameter("w", {2, 5, 1, 1}, w);
  ValueId bias = b.parameter("bias", {2}, {0.5f, -0.5f});
  ValueId a = b.input("a", {1, 2, 4, 4});
  ValueId c = b.input("c", {1, 3, 4, 4});
  ValueId cat = b.op("aten::cat.default", {}, "cat", {1, 5, 4, 4},
                     {{"tensors", Argument::tensor_list({a, c}), false}, {"dim", Argument::integer(1), false}});
  ValueId x = cat;
  const int64_t hw = pool ? 2 : 4;
  if (pool) {
    x = b.op("aten::max_pool2d.default", {{"self", cat}}, "pool", {1, 5, 2, 2},
             {ints("kernel_size", {2, 2}), ints("stride", {2, 2})});
  }
  ValueId y = b.op("aten::convolution.default", {{"input", x}, {"weight", wv}, {"bias", bias}}, "conv",
                   {1, 2, hw, hw}, conv_args());
  b.output(b.op("aten::relu.default", {{"self", y}}, "relu", {1, 2, hw, hw}));
  if (extra_use) b.output(cat);
  return b.take();
}

std::vector<float> floats_of(const Graph& g, const std::string& name) {
  const TensorSpec& t = g.value(g.find_value(name)).tensor;
  std::vector<float> out(t.constant->bytes.size() / 4);
  std::memcpy(out.data(), t.constant->bytes.data(), t.constant->bytes.size());
  return out;
}

TEST(DistributeConvOverCatPassTest, ConvThroughMaxPoolBecomesTwoConvsAndAnAdd) {
  Graph g = fire_join(true, false);
  ASSERT_EQ(DistributeConvOverCatPass().run(g), Error::Ok);
  EXPECT_EQ(verify_graph(g), Error::Ok);
  const std::string body = print_body(g);
  EXPECT_EQ(body.find("aten::cat"), std::string::npos) << body;
  EXPECT_NE(body.find("%pool_0 : f32[1, 2, 2, 2] = aten::max_pool2d.default(self=%a"), std::string::npos) << body;
  EXPECT_NE(body.find("%pool_1 : f32[1, 3, 2, 2] = aten::max_pool2d.default(self=%c"), std::string::npos) << body;
  EXPECT_NE(body.find("%conv_0 : f32[1, 2, 2, 2] = aten::convolution.default(input=%pool_0, weight=%w, bias=%bias"),
            std::string::npos) << body;
  EXPECT_NE(body.find("%conv_1 : f32[1, 2, 2, 2] = aten::convolution.default(input=%pool_1, weight=%w_1, bias=None"),
            std::string::npos) << body;
  EXPECT_NE(body.find("%conv : f32[1, 2, 2, 2] = aten::add.Tensor(self=%conv_0, other=%conv_1)"), std::string::npos)
      << body;
  // Input channels 0..1 and 2..4 of w[o][i] = 10 * o + i.
  EXPECT_EQ(floats_of(g, "w"), (std::vector<float>{0, 1, 10, 11}));
  EXPECT_EQ(floats_of(g, "w_1"), (std::vector<float>{2, 3, 4, 12, 13, 14}));
  EXPECT_EQ(g.value(g.find_value("w_1")).tensor.to_string(), "f32[2, 3, 1, 1]");
}

TEST(DistributeConvOverCatPassTest, DirectConvToo) {
  Graph g = fire_join(false, false);
  ASSERT_EQ(DistributeConvOverCatPass().run(g), Error::Ok);
  EXPECT_EQ(verify_graph(g), Error::Ok);
  const std::string body = print_body(g);
  EXPECT_EQ(body.find("aten::cat"), std::string::npos) << body;
  EXPECT_NE(body.find("aten::convolution.default(input=%a, weight=%w"), std::string::npos) << body;
  EXPECT_NE(body.find("aten::convolution.default(input=%c, weight=%w_1"), std::string::npos) << body;
}

TEST(DistributeConvOverCatPassTest, CatWithAnotherUseIsKept) {
  Graph g = fire_join(true, true);
  const std::string before = print_body(g);
  ASSERT_EQ(DistributeConvOverCatPass().run(g), Error::Ok);
  EXPECT_EQ(print_body(g), before);
}

}  // namespace
}  // namespace ember::aot
