// Convolutions the delegate rewrites: pixel pairs (paired_conv.h) and L2-sized blocks
// (blocked_conv.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "backends/xnnpack/runtime/blocked_conv.h"
#include "backends/xnnpack/runtime/paired_conv.h"
#include "backends/xnnpack/runtime/test_delegate.h"
#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack::testing {
namespace {

using runtime::Error;

// Convolutions with few output channels run on pixel pairs (paired_conv.h) where the CPU's
// GEMM tile makes it pay: the paired filter by hand, the cost rule, and whole convolutions
// (paired, and plain for odd widths) against a direct loop.
TEST(PairedConv, FilterHoldsTheTapsOfBothPixels) {
  // 1x3 kernel [a b c], 1 -> 1 channel. Output pixel q of a pair reads pair columns kc = 0, 1,
  // halves r = 0, 1: tap 2 kc + r - q. q = 0: a b c 0; q = 1: 0 a b c.
  const float filter[3] = {1.f, 2.f, 3.f};
  float paired[8];
  pair_filter(filter, 1, 1, 3, 1, paired);
  const float want[8] = {1.f, 2.f, 3.f, 0.f, 0.f, 1.f, 2.f, 3.f};
  for (int i = 0; i < 8; ++i) EXPECT_EQ(paired[i], want[i]) << i;
}

TEST(PairedConv, PaysOnlyWhenTheTileIsLessThanHalfFull) {
  EXPECT_TRUE(paired_geometry(3, 16, 32).pays);   // 2 x 32 against 3 x 32
  EXPECT_FALSE(paired_geometry(3, 17, 32).pays);  // 2 x 64 against 3 x 32
  EXPECT_FALSE(paired_geometry(1, 16, 32).pays);  // 1x1: nothing to share
  EXPECT_FALSE(paired_geometry(3, 16, 16).pays);
  EXPECT_TRUE(paired_geometry(3, 8, 16).pays);
  EXPECT_TRUE(paired_geometry(5, 16, 32).pays);  // 3 x 32 against 5 x 32
  EXPECT_EQ(paired_geometry(5, 16, 32).kernel_width, 3u);
  EXPECT_FALSE(paired_geometry(3, 0, 32).pays);
}

// y = conv(x) (k x k, stride 1, `pad` on every side, NHWC/OHWI), optionally clamped at 0.
std::vector<float> direct_conv(const std::vector<float>& x, const std::vector<float>& w,
                               const std::vector<float>& b, int h, int wd, int c, int co, int k,
                               int pad, bool relu) {
  const int oh = h + 2 * pad - k + 1, ow = wd + 2 * pad - k + 1;
  std::vector<float> y(size_t(oh) * ow * co);
  for (int oy = 0; oy < oh; ++oy) {
    for (int ox = 0; ox < ow; ++ox) {
      for (int o = 0; o < co; ++o) {
        double acc = b[o];
        for (int ky = 0; ky < k; ++ky) {
          for (int kx = 0; kx < k; ++kx) {
            const int iy = oy + ky - pad, ix = ox + kx - pad;
            if (iy < 0 || iy >= h || ix < 0 || ix >= wd) continue;
            for (int i = 0; i < c; ++i) {
              acc += double(x[(size_t(iy) * wd + ix) * c + i]) *
                     w[((size_t(o) * k + ky) * k + kx) * c + i];
            }
          }
        }
        y[(size_t(oy) * ow + ox) * co + o] = relu ? std::max(float(acc), 0.f) : float(acc);
      }
    }
  }
  return y;
}

void check_conv(int h, int wd, int c, int co, int k, int pad, bool relu) {
  SCOPED_TRACE(::testing::Message() << h << "x" << wd << "x" << c << " -> " << co << " k" << k
                                    << " pad " << pad << (relu ? " relu" : ""));
  std::vector<float> x(size_t(h) * wd * c), w(size_t(co) * k * k * c), b(co);
  uint32_t seed = 12345;
  const auto next = [&seed] {
    seed = seed * 1664525u + 1013904223u;
    return float(seed >> 8) / 8388608.f - 1.f;
  };
  for (float& v : x) v = next();
  for (float& v : w) v = next();
  for (float& v : b) v = next();
  const int oh = h + 2 * pad - k + 1, ow = wd + 2 * pad - k + 1;
  GraphBuilder g;
  const uint32_t in = g.tensor({1, uint32_t(h), uint32_t(wd), uint32_t(c)}, kIn, 0);
  const uint32_t wt = g.constant({uint32_t(co), uint32_t(k), uint32_t(k), uint32_t(c)}, w);
  const uint32_t bt = g.constant({uint32_t(co)}, b);
  g.conv2d(k, pad, c, co, in, wt, bt,
           g.tensor({1, uint32_t(oh), uint32_t(ow), uint32_t(co)}, kOut, 1));
  if (relu) g.clamp_last(0.f, INFINITY);
  Delegate d(g);
  ASSERT_EQ(d.init_error(), Error::Ok) << runtime::last_error_message();
  const bool pays = paired_geometry(k, co, f32_gemm_tile_width()).pays;
  EXPECT_EQ(d.executor()->model().nodes[0].paired_filter != nullptr, pays);
  // Filters larger than this CPU's L2 run grouped over input copies (blocked_conv.h).
  const uint32_t nr = f32_gemm_tile_width();
  const uint64_t packed = (uint64_t(co) + nr - 1) / nr * nr * (uint64_t(k) * k * c + 1) * 4;
  const uint32_t blocks = pays ? 1 : conv_blocks(packed, co, nr, l2_cache_bytes());
  EXPECT_EQ(d.executor()->model().nodes[0].conv_blocks, blocks);
  HeapTensor xin({1, h, wd, c}, x, {0, 1, 2, 3}), yout({1, oh, ow, co}, {}, {0, 1, 2, 3});
  ASSERT_EQ(d.run({&xin, &yout}), Error::Ok) << runtime::last_error_message();
  const std::vector<float> want = direct_conv(x, w, b, h, wd, c, co, k, pad, relu);
  for (size_t i = 0; i < want.size(); ++i) {
    ASSERT_NEAR(yout.f()[i], want[i], 1e-4f * (1.f + std::fabs(want[i]))) << "element " << i;
  }
}

TEST(PairedConv, MatchesDirectConvolution) {
  check_conv(5, 8, 5, 3, 3, 1, false);    // pad 1: pairs shifted by one pixel, output sliced
  check_conv(5, 8, 5, 3, 3, 1, true);     // fused ReLU
  check_conv(4, 8, 3, 16, 3, 0, false);   // pad 0: pairs aligned, no slice
  check_conv(6, 10, 4, 16, 5, 2, false);  // 5x5: three pair columns
  check_conv(3, 6, 16, 16, 3, 1, true);   // narrow ResNet's 16 -> 16 layer, small
  check_conv(5, 7, 5, 3, 3, 1, false);    // odd width: the plain convolution
}

// Convolutions whose filter is larger than L2 run as grouped convolutions over copies of the
// input (blocked_conv.h): the group rule by hand, and whole convolutions against a direct loop
// (blocked where this CPU's L2 makes it pay: the 2.4 MB and 4 MB filters below exceed a 1-2 MB
// L2, this machine's 1 MB among them; plain for one row tile of output pixels).
TEST(BlockedConv, FewestGroupsWhoseBlockFitsThreeQuartersOfL2) {
  const uint64_t mib = 1 << 20;
  EXPECT_EQ(conv_blocks(9437184 + 2048, 512, 32, mib), 16u);  // ResNet-18 3x3 512: 590 KB blocks
  EXPECT_EQ(conv_blocks(2359296 + 1024, 256, 32, mib), 4u);   // 3x3 256: 590 KB blocks
  EXPECT_EQ(conv_blocks(mib, 512, 32, mib), 1u);              // fits L2
  EXPECT_EQ(conv_blocks(64 * mib, 32, 32, mib), 1u);          // one tile of outputs
  EXPECT_EQ(conv_blocks(64 * mib, 64, 32, mib), 2u);          // no block fits: the most groups
  EXPECT_EQ(conv_blocks(64 * mib, 96, 32, mib), 3u);          // 3 groups of 32
  EXPECT_EQ(conv_blocks(64 * mib, 40, 32, mib), 2u);          // 2 x 20: 2 tiles, as 40 takes
  // SqueezeNet's 1x1 512 -> 1000 (2 MB): 4 x 250 outputs, 4 x 8 = 32 tiles as for 1000; 2 x 500
  // does not fit 3/4 of L2, 5 x 200 would take 5 x 7 = 35 tiles.
  EXPECT_EQ(conv_blocks(2052000, 1000, 32, mib), 4u);
  EXPECT_EQ(conv_blocks(64 * mib, 512, 32, 0), 1u);  // L2 unknown
  // groups = CO with one output each would share XNNPACK's packed-weights key with the plain
  // form (1 ^ CO == CO ^ 1): plain.
  EXPECT_EQ(conv_blocks(64 * mib, 4, 1, mib), 1u);
}

TEST(BlockedConv, MatchesDirectConvolution) {
  check_conv(6, 6, 256, 256, 3, 1, true);     // 2.4 MB filter, 36 pixels: blocked, fused ReLU
  check_conv(4, 3, 1024, 1024, 1, 0, false);  // 1x1, 4 MB filter, 12 pixels: blocked
  check_conv(3, 3, 512, 1000, 1, 0, true);    // SqueezeNet's classifier: 4 x 250 outputs
  check_conv(2, 2, 256, 256, 3, 1, false);    // 4 pixels, one row tile: plain
}

}  // namespace
}  // namespace ember::backends::xnnpack::testing
