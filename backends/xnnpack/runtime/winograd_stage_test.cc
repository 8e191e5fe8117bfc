// Stride-1 3x3 convolutions run as Winograd convolutions between subgraph stages
// (winograd_stage.h): which nodes are taken, and whole graphs through the Winograd stage against
// the same graph in XNNPACK's direct form (XnnpackBackend::set_winograd(false)) and against a
// direct convolution in double; plans whose shapes fail the tile rule fall back to the direct
// form; a pool splits the transforms.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/xnnpack/runtime/blocked_conv.h"
#include "backends/xnnpack/runtime/paired_conv.h"
#include "backends/xnnpack/runtime/test_delegate.h"
#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/winograd_conv.h"
#include "backends/xnnpack/runtime/winograd_stage.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {
namespace {

using runtime::Error;

struct Case {
  uint32_t n, h, w, c, co, pad;  // bounds of the graph's input; the output is (h + 2 pad - 2)²
};

std::vector<float> random_values(size_t count, uint32_t seed) {
  std::vector<float> v(count);
  for (float& e : v) {
    seed = seed * 1664525u + 1013904223u;
    e = float(seed >> 8) / 8388608.f - 1.f;
  }
  return v;
}

// a = x + x; c = relu(conv3x3(a) + b); y = c + a (pad 1 and c == co: a residual around the
// Winograd stage) or y = c + c. Input bounds [n, h, w, c].
GraphBuilder winograd_graph(const Case& k, const std::vector<float>& w, const std::vector<float>& b) {
  const uint32_t oh = k.h + 2 * k.pad - 2, ow = k.w + 2 * k.pad - 2;
  GraphBuilder g;
  const uint32_t x = g.tensor({k.n, k.h, k.w, k.c}, kIn, 0);
  const uint32_t a = g.tensor({k.n, k.h, k.w, k.c});
  g.node_2x1(XNodeUnion::XNNAdd, x, x, a);
  const uint32_t wt = g.constant({k.co, 3, 3, k.c}, w);
  const uint32_t bt = g.constant({k.co}, b);
  const uint32_t c = g.tensor({k.n, oh, ow, k.co});
  g.conv2d(3, k.pad, k.c, k.co, a, wt, bt, c);
  g.clamp_last(0.f, INFINITY);
  const uint32_t y = g.tensor({k.n, oh, ow, k.co}, kOut, 1);
  g.node_2x1(XNodeUnion::XNNAdd, c, k.pad == 1 && k.c == k.co ? a : c, y);
  return g;
}

// The graph above in double, for an input of n x h x w.
std::vector<double> reference(const Case& k, uint32_t n, uint32_t h, uint32_t wd,
                              const std::vector<float>& x, const std::vector<float>& w,
                              const std::vector<float>& b) {
  const uint32_t oh = h + 2 * k.pad - 2, ow = wd + 2 * k.pad - 2;
  std::vector<double> y(size_t{n} * oh * ow * k.co);
  for (uint32_t i = 0; i < n; ++i) {
    const float* xi = x.data() + size_t{i} * h * wd * k.c;
    for (uint32_t oy = 0; oy < oh; ++oy) {
      for (uint32_t ox = 0; ox < ow; ++ox) {
        for (uint32_t o = 0; o < k.co; ++o) {
          double acc = b[o];
          for (uint32_t ky = 0; ky < 3; ++ky) {
            for (uint32_t kx = 0; kx < 3; ++kx) {
              const int64_t iy = int64_t{oy} + ky - k.pad, ix = int64_t{ox} + kx - k.pad;
              if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
              for (uint32_t c = 0; c < k.c; ++c) {
                acc += 2.0 * xi[(size_t(iy) * wd + size_t(ix)) * k.c + c] *
                       w[((size_t{o} * 3 + ky) * 3 + kx) * k.c + c];
              }
            }
          }
          const double r = std::max(acc, 0.0);
          const double other = k.pad == 1 && k.c == k.co ? 2.0 * xi[(size_t{oy} * wd + ox) * k.c + o] : r;
          y[((size_t{i} * oh + oy) * ow + ox) * k.co + o] = r + other;
        }
      }
    }
  }
  return y;
}

// Runs the graph at input n x h x w with Winograd on or off; returns the output and the number
// of Winograd stages of the plan that ran.
std::vector<float> run(const Case& k, bool winograd, uint32_t n, uint32_t h, uint32_t wd,
                       const std::vector<float>& x, const std::vector<float>& w,
                       const std::vector<float>& b, uint32_t* winograd_stages) {
  backend_instance().set_winograd(winograd);
  Delegate d(winograd_graph(k, w, b));
  backend_instance().set_winograd(true);
  EXPECT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  if (d.init_error() != Error::Ok) return {};
  const uint32_t oh = h + 2 * k.pad - 2, ow = wd + 2 * k.pad - 2;
  const bool expect_winograd = winograd && winograd_available() &&
      winograd_tile(k.c, k.co, k.h + 2 * k.pad - 2, k.w + 2 * k.pad - 2, f32_gemm_tile_width(),
                    l2_cache_bytes(), winograd_min_tiles(d.executor()->model(), l3_cache_bytes())) != 0;
  const NodeDesc& conv = d.executor()->model().nodes[1];
  EXPECT_EQ(conv.runner == NodeRunner::Winograd, expect_winograd);
  EXPECT_EQ(conv.winograd_filter != nullptr, expect_winograd);
  HeapTensor xin({int32_t(n), int32_t(h), int32_t(wd), int32_t(k.c)}, x, {0, 1, 2, 3});
  HeapTensor yout({int32_t(n), int32_t(oh), int32_t(ow), int32_t(k.co)}, {}, {0, 1, 2, 3});
  EXPECT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  // Twice: a second run reuses the plan and its scratch.
  EXPECT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  *winograd_stages = d.executor()->latest_plan()->num_winograd_stages();
  return std::vector<float>(yout.f(), yout.f() + size_t{n} * oh * ow * k.co);
}

// Winograd against the direct form (1e-5 of the output's largest magnitude) and both against
// double (1e-4); `want_winograd`: the plan runs the node as Winograd where the CPU can.
void check(const Case& k, uint32_t n, uint32_t h, uint32_t wd, bool want_winograd) {
  SCOPED_TRACE(::testing::Message() << n << "x" << h << "x" << wd << "x" << k.c << " -> " << k.co
                                    << " pad " << k.pad);
  const std::vector<float> x = random_values(size_t{n} * h * wd * k.c, 11);
  const std::vector<float> w = random_values(size_t{k.co} * 9 * k.c, 22);
  const std::vector<float> b = random_values(k.co, 33);
  uint32_t stages = 0, direct_stages = 0;
  const std::vector<float> wino = run(k, true, n, h, wd, x, w, b, &stages);
  const std::vector<float> direct = run(k, false, n, h, wd, x, w, b, &direct_stages);
  EXPECT_EQ(direct_stages, 0u);
  // This file's graphs hold far less than half an L3 of constants: 4 tiles suffice.
  const uint64_t min_tiles = l3_cache_bytes() == 0 ? kWinogradMinTilesFromMemory : kWinogradMinTiles;
  const bool available = winograd_available() &&
      winograd_tile(k.c, k.co, k.h + 2 * k.pad - 2, k.w + 2 * k.pad - 2, f32_gemm_tile_width(),
                    l2_cache_bytes(), min_tiles) != 0;
  EXPECT_EQ(stages, want_winograd && available ? 1u : 0u);
  const std::vector<double> want = reference(k, n, h, wd, x, w, b);
  ASSERT_EQ(wino.size(), want.size());
  ASSERT_EQ(direct.size(), want.size());
  double scale = 0;
  for (double v : want) scale = std::max(scale, std::fabs(v));
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(wino[i], direct[i], 1e-5 * scale) << "element " << i;
    ASSERT_NEAR(wino[i], want[i], 1e-4 * scale) << "element " << i;
  }
}

TEST(WinogradStage, MatchesDirectFormF43WithResidual) {
  check({1, 12, 12, 32, 32, 1}, 1, 12, 12, true);  // 12x12 output: F(4,3), 9 tiles
}

TEST(WinogradStage, MatchesDirectFormF23Batched) {
  // 6x6 output: 4x4 tiles would cover 64 pixels for 36 real ones, so F(2,3); batch 2, pad 0.
  check({2, 8, 8, 32, 64, 0}, 2, 8, 8, true);
}

TEST(WinogradStage, ManyTileBlocks) {
  // 32 -> 32 at 40x38: 100 tiles of F(4,3) (9 KB each) in two blocks of at most
  // kWinogradBlockBytes; the last row of tiles half outside the output.
  check({1, 40, 38, 32, 32, 1}, 1, 40, 38, true);
}

TEST(WinogradStage, PlanFailingTheTileRuleRunsTheDirectForm) {
  // Bounds 12x12 take F(4,3); a 5x5 input (5x5 output, tiles covering 64 pixels) does not:
  // that plan runs the node as a one-node subgraph.
  check({1, 12, 12, 32, 32, 1}, 1, 5, 5, false);
  check({1, 12, 12, 32, 32, 1}, 1, 8, 12, true);  // smaller, still covered (6 tiles)
  check({1, 12, 12, 32, 32, 1}, 1, 4, 4, false);  // covered by one tile: fewer than 4
}

TEST(WinogradStage, FewTilesNeedCachedWeights) {
  GraphBuilder g = winograd_graph({1, 12, 12, 32, 32, 1}, random_values(32 * 9 * 32, 1),
                                  random_values(32, 2));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const GraphModel& m = d.executor()->model();
  EXPECT_EQ(winograd_min_tiles(m, uint64_t{32} << 20), kWinogradMinTiles);  // 37 KB of constants
  EXPECT_EQ(winograd_min_tiles(m, 64 << 10), kWinogradMinTilesFromMemory);
  EXPECT_EQ(winograd_min_tiles(m, 0), kWinogradMinTilesFromMemory);           // L3 unknown
  // DenseNet-121's 128 -> 32 layers at 64x64: 16x16 and 8x8 outputs keep Winograd from memory
  // (F(2,3) for 8x8: 16 tiles), 4x4 and 2x2 do not.
  const uint64_t l2 = 2 << 20;
  EXPECT_EQ(winograd_tile(128, 32, 16, 16, 32, l2, kWinogradMinTilesFromMemory), 4u);
  EXPECT_EQ(winograd_tile(128, 32, 8, 8, 32, l2, kWinogradMinTilesFromMemory), 2u);
  EXPECT_EQ(winograd_tile(128, 32, 4, 4, 32, l2, kWinogradMinTilesFromMemory), 0u);
  EXPECT_EQ(winograd_tile(128, 32, 4, 4, 32, l2, kWinogradMinTiles), 2u);
  EXPECT_EQ(winograd_tile(128, 32, 2, 2, 32, l2, kWinogradMinTiles), 0u);
}

TEST(WinogradStage, NarrowOrOddChannelsStayInTheSubgraph) {
  // 16 output channels (a paired convolution's case on AVX-512) and 24 input channels: direct.
  check({1, 10, 10, 32, 16, 1}, 1, 10, 10, false);
  check({1, 10, 10, 24, 32, 1}, 1, 10, 10, false);
}

TEST(WinogradStage, DisabledKeepsTheDirectForm) {
  backend_instance().set_winograd(false);
  Delegate d(winograd_graph({1, 12, 12, 32, 32, 1}, random_values(32 * 9 * 32, 1),
                            random_values(32, 2)));
  backend_instance().set_winograd(true);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->model().nodes[1].runner, NodeRunner::Subgraph);
}

// With a pool, a convolution with fewer than 64 outputs keeps the direct form (decision 261).
TEST(WinogradStage, APoolKeepsNarrowOutputsDirect) {
  ASSERT_EQ(backend_instance().set_num_threads(2), Error::Ok);
  Delegate d(winograd_graph({1, 12, 12, 32, 32, 1}, random_values(32 * 9 * 32, 1),
                            random_values(32, 2)));
  ASSERT_EQ(backend_instance().set_num_threads(1), Error::Ok);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->model().nodes[1].runner, NodeRunner::Subgraph);
}

TEST(WinogradStage, ThreadPoolSplitsTheTransforms) {
  ASSERT_EQ(backend_instance().set_num_threads(2), Error::Ok);
  const uint64_t min_work = backend_instance().min_parallel_work();
  backend_instance().set_min_parallel_work(0);
  check({1, 40, 38, 32, 64, 1}, 1, 40, 38, true);
  check({2, 8, 8, 32, 64, 0}, 2, 8, 8, true);
  backend_instance().set_min_parallel_work(min_work);
  ASSERT_EQ(backend_instance().set_num_threads(1), Error::Ok);
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing
