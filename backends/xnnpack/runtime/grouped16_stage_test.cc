// Grouped convolutions with 16-channel groups run as delegate stages (grouped16_stage.h):
// x -> add(x, x) -> grouped conv (+ bias, ReLU) -> add(y, y), so the stage sits between two
// XNNPACK subgraph stages; against the definition in double. The node must be marked
// Grouped16 where grouped16_vectorized(), and the output must match either way.
#include "backends/xnnpack/runtime/grouped16_stage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "backends/xnnpack/runtime/grouped16_conv.h"
#include "backends/xnnpack/runtime/test_delegate.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNodeUnion;
using runtime::Error;
using testing::Delegate;
using testing::GraphBuilder;
using testing::HeapTensor;
using testing::kIn;
using testing::kOut;

struct Case {
  uint32_t h, w, groups, stride;
};

uint32_t out_dim(uint32_t in, uint32_t stride) { return (in + 2 - 3) / stride + 1; }

GraphBuilder graph(const Case& k, const std::vector<float>& w, const std::vector<float>& b) {
  const uint32_t c = k.groups * 16, oh = out_dim(k.h, k.stride), ow = out_dim(k.w, k.stride);
  GraphBuilder g;
  const uint32_t x = g.tensor({1, k.h, k.w, c}, kIn, 0);
  const uint32_t x2 = g.tensor({1, k.h, k.w, c});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, x2);
  const uint32_t filter = g.constant({c, 3, 3, 16}, w);
  const uint32_t bias = g.constant({c}, b);
  const uint32_t y = g.tensor({1, oh, ow, c});
  g.conv2d(3, 1, 16, 16, x2, filter, bias, y);
  auto* conv = g.graph.xnodes.back()->xnode_union.AsXNNConv2d();
  conv->groups = k.groups;
  conv->subsampling_height = conv->subsampling_width = k.stride;
  g.clamp_last(0.f, INFINITY);
  g.node_2x1(XNodeUnion::XNNAdd, y, y, g.tensor({1, oh, ow, c}, kOut, 1));
  return g;
}

void check(const Case& k, int threads = 1) {
  SCOPED_TRACE(::testing::Message() << k.h << "x" << k.w << " groups " << k.groups << " stride " << k.stride);
  const uint32_t c = k.groups * 16, oh = out_dim(k.h, k.stride), ow = out_dim(k.w, k.stride);
  std::mt19937 rng(k.groups * 31 + k.h);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> x(size_t{k.h} * k.w * c), w(size_t{c} * 9 * 16), b(c);
  for (float& v : x) v = u(rng);
  for (float& v : w) v = u(rng);
  for (float& v : b) v = u(rng);
  Delegate d(graph(k, w, b));
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const NodeDesc& conv = d.executor()->model().nodes[1];
  EXPECT_EQ(conv.runner == NodeRunner::Grouped16, grouped16_vectorized() && threads == 1);
  HeapTensor xin({1, int32_t(k.h), int32_t(k.w), int32_t(c)}, x, {0, 1, 2, 3});
  HeapTensor yout({1, int32_t(oh), int32_t(ow), int32_t(c)}, {}, {0, 1, 2, 3});
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();  // the plan again
  double max_err = 0, max_ref = 0;
  for (uint32_t oy = 0; oy < oh; ++oy) {
    for (uint32_t ox = 0; ox < ow; ++ox) {
      for (uint32_t o = 0; o < c; ++o) {
        const uint32_t g = o / 16;
        double acc = b[o];
        for (uint32_t ky = 0; ky < 3; ++ky) {
          for (uint32_t kx = 0; kx < 3; ++kx) {
            const int iy = int(oy * k.stride + ky) - 1, ix = int(ox * k.stride + kx) - 1;
            if (iy < 0 || ix < 0 || iy >= int(k.h) || ix >= int(k.w)) continue;
            for (uint32_t i = 0; i < 16; ++i) {
              acc += 2.0 * x[(size_t(iy) * k.w + ix) * c + g * 16 + i] * w[((size_t{o} * 3 + ky) * 3 + kx) * 16 + i];
            }
          }
        }
        const double ref = 2.0 * std::max(acc, 0.0);
        max_err = std::max(max_err, std::fabs(yout.f()[(size_t{oy} * ow + ox) * c + o] - ref));
        max_ref = std::max(max_ref, std::fabs(ref));
      }
    }
  }
  EXPECT_LT(max_err, 1e-5 * max_ref) << "max |ref| " << max_ref;
  EXPECT_GT(max_ref, 1.0);
}

TEST(Grouped16Stage, BetweenSubgraphStagesMatchesTheDefinition) {
  check({2, 2, 25, 1});   // RegNetX stage 4
  check({4, 4, 10, 1});   // stage 3
  check({8, 8, 10, 2});   // stage 3 entry
  check({5, 7, 3, 1});    // odd plane: 8- and 4-pixel blocks with remainders
}

TEST(Grouped16Stage, WithTwoThreadsXnnpackRunsItOverThePool) {
  // The stage is single-threaded: a delegate with a pool of two keeps the node in its subgraph.
  ASSERT_EQ(backend_instance().set_num_threads(2), Error::Ok);
  check({4, 4, 10, 1}, 2);
  check({8, 8, 10, 2}, 2);
  ASSERT_EQ(backend_instance().set_num_threads(1), Error::Ok);
}

TEST(Grouped16Stage, AloneFromTheGraphInputToItsOutput) {
  // x [1,3,3,32] -> grouped conv (2 groups, 1x1 filter of ones per group) -> y: each output
  // channel is the sum of its group's 16 input channels.
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 3, 3, 32}, kIn, 0);
  const uint32_t filter = g.constant({32, 1, 1, 16}, std::vector<float>(32 * 16, 1.f));
  const uint32_t bias = g.constant({32}, std::vector<float>(32, 0.5f));
  g.conv2d(1, 0, 16, 16, x, filter, bias, g.tensor({1, 3, 3, 32}, kOut, 1));
  g.graph.xnodes.back()->xnode_union.AsXNNConv2d()->groups = 2;
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->model().nodes[0].runner == NodeRunner::Grouped16, grouped16_vectorized());
  std::vector<float> xv(9 * 32);
  for (size_t i = 0; i < xv.size(); ++i) xv[i] = float(i % 32 < 16 ? 1 : 2) * float(i / 32 + 1);
  HeapTensor xin({1, 3, 3, 32}, xv, {0, 1, 2, 3});
  HeapTensor yout({1, 3, 3, 32}, {}, {0, 1, 2, 3});
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  for (int p = 0; p < 9; ++p) {
    EXPECT_EQ(yout.f()[p * 32 + 0], 16.f * (p + 1) + 0.5f) << "pixel " << p;
    EXPECT_EQ(yout.f()[p * 32 + 31], 32.f * (p + 1) + 0.5f) << "pixel " << p;
  }
}

TEST(Grouped16Stage, OtherGroupWidthsStayInTheSubgraph) {
  GraphBuilder g;
  const uint32_t x = g.tensor({1, 4, 4, 64}, kIn, 0);
  const uint32_t filter = g.constant({64, 3, 3, 32}, std::vector<float>(64 * 9 * 32, 0.01f));
  const uint32_t bias = g.constant({64}, std::vector<float>(64, 0.f));
  g.conv2d(3, 1, 32, 32, x, filter, bias, g.tensor({1, 4, 4, 64}, kOut, 1));
  g.graph.xnodes.back()->xnode_union.AsXNNConv2d()->groups = 2;
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->model().nodes[0].runner, NodeRunner::Subgraph);
}

}  // namespace
}  // namespace ember::backends::xnnpack
