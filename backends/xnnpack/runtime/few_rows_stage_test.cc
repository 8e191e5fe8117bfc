// 1x1 convolutions on few pixels run as delegate stages (few_rows_stage.h): x -> add(x, x) ->
// 1x1 conv (+ bias, ReLU) -> add(y, y), the stage between two XNNPACK subgraph stages, against
// the definition in double; the node is marked FewRows where few_rows_vectorized() and the
// pixel count pays (2-16, not 7 or 14), and stays in its subgraph otherwise.
#include "backends/xnnpack/runtime/few_rows_stage.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "backends/xnnpack/runtime/few_rows_gemm.h"
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

void check(uint32_t h, uint32_t w, uint32_t k, uint32_t n, bool expect_stage) {
  SCOPED_TRACE(::testing::Message() << h << "x" << w << " " << k << " -> " << n);
  std::mt19937 rng(h * 17 + w + k);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> x(size_t{h} * w * k), wt(size_t{n} * k), b(n);
  for (float& v : x) v = u(rng);
  for (float& v : wt) v = u(rng);
  for (float& v : b) v = u(rng);
  GraphBuilder g;
  const uint32_t xi = g.tensor({1, h, w, k}, kIn, 0);
  const uint32_t x2 = g.tensor({1, h, w, k});
  g.node_2x1(XNodeUnion::XNNAdd, xi, xi, x2);
  const uint32_t y = g.tensor({1, h, w, n});
  g.conv2d(1, 0, k, n, x2, g.constant({n, 1, 1, k}, wt), g.constant({n}, b), y);
  g.clamp_last(0.f, INFINITY);
  g.node_2x1(XNodeUnion::XNNAdd, y, y, g.tensor({1, h, w, n}, kOut, 1));
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  EXPECT_EQ(d.executor()->model().nodes[1].runner == NodeRunner::FewRows, expect_stage && few_rows_vectorized());
  HeapTensor xin({1, int32_t(h), int32_t(w), int32_t(k)}, x, {0, 1, 2, 3});
  HeapTensor yout({1, int32_t(h), int32_t(w), int32_t(n)}, {}, {0, 1, 2, 3});
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  double max_err = 0, max_ref = 0;
  for (uint32_t p = 0; p < h * w; ++p) {
    for (uint32_t o = 0; o < n; ++o) {
      double acc = b[o];
      for (uint32_t i = 0; i < k; ++i) acc += 2.0 * x[size_t{p} * k + i] * wt[size_t{o} * k + i];
      const double ref = 2.0 * std::max(acc, 0.0);
      max_err = std::max(max_err, std::fabs(yout.f()[size_t{p} * n + o] - ref));
      max_ref = std::max(max_ref, std::fabs(ref));
    }
  }
  EXPECT_LT(max_err, 1e-5 * max_ref) << "max |ref| " << max_ref;
  EXPECT_GT(max_ref, 1.0);
}

TEST(FewRowsStage, BetweenSubgraphStagesMatchesTheDefinition) {
  check(3, 3, 256, 200, true);   // SqueezeNet-like classifier: 9 rows, one pass (the test arena is 1 MB)
  check(4, 4, 160, 160, true);   // 16 rows: two passes of 8
  check(2, 2, 400, 40, true);    // 4 rows, a partial 32-column panel
  check(1, 5, 33, 17, true);     // 5 rows, one partial panel
}

TEST(FewRowsStage, WithTwoThreadsXnnpackRunsItOverThePool) {
  ASSERT_EQ(backend_instance().set_num_threads(2), Error::Ok);
  check(3, 3, 256, 200, false);  // a delegate with a pool of two keeps it in its subgraph
  ASSERT_EQ(backend_instance().set_num_threads(1), Error::Ok);
}

TEST(FewRowsStage, PixelCountsThatFitXnnpacksTilesStayInTheSubgraph) {
  check(7, 1, 64, 64, false);  // 7 rows: one full tile
  check(5, 5, 64, 64, false);  // 25 rows
  check(1, 1, 64, 64, false);  // 1 row: XNNPACK's 1-row kernel
}

}  // namespace
}  // namespace ember::backends::xnnpack
