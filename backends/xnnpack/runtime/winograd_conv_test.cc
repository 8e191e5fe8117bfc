// Winograd transforms against a direct 3x3 convolution computed here in double (hand-derived
// math: y[o][y][x] = b[o] + sum over taps and channels), with the n² GEMMs done by plain loops,
// and the tile rule on the peer models' layer shapes.
#include "backends/xnnpack/runtime/winograd_conv.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

namespace ember::backends::xnnpack {
namespace {

struct Case {
  uint32_t m, h, w, ci, co, pad;
  float lo, hi;
};

std::vector<double> direct(const Case& k, const std::vector<float>& x, const std::vector<float>& f,
                           const std::vector<float>& b) {
  const uint32_t oh = k.h + 2 * k.pad - 2, ow = k.w + 2 * k.pad - 2;
  std::vector<double> y(size_t{oh} * ow * k.co);
  for (uint32_t oy = 0; oy < oh; ++oy) {
    for (uint32_t ox = 0; ox < ow; ++ox) {
      for (uint32_t o = 0; o < k.co; ++o) {
        double s = b[o];
        for (uint32_t ky = 0; ky < 3; ++ky) {
          for (uint32_t kx = 0; kx < 3; ++kx) {
            const int64_t iy = int64_t{oy} + ky - k.pad, ix = int64_t{ox} + kx - k.pad;
            if (iy < 0 || ix < 0 || iy >= k.h || ix >= k.w) continue;
            for (uint32_t c = 0; c < k.ci; ++c) {
              s += double{x[(size_t(iy) * k.w + size_t(ix)) * k.ci + c]} *
                   f[((size_t{o} * 3 + ky) * 3 + kx) * k.ci + c];
            }
          }
        }
        y[(size_t{oy} * ow + ox) * k.co + o] = std::min<double>(std::max<double>(s, k.lo), k.hi);
      }
    }
  }
  return y;
}

// Winograd in blocks of `block` tiles into y (stride `stride` floats per pixel, from `offset`).
void winograd(const Case& k, const std::vector<float>& x, const std::vector<float>& f,
              const std::vector<float>& b, uint32_t block, size_t stride, size_t offset,
              std::vector<float>* y) {
  const uint32_t n = k.m + 2, oh = k.h + 2 * k.pad - 2, ow = k.w + 2 * k.pad - 2;
  std::vector<float> u(size_t{n} * n * k.ci * k.co);
  winograd_transform_filter(k.m, f.data(), k.ci, k.co, u.data());
  std::vector<float> v(size_t{n} * n * block * k.ci), mo(size_t{n} * n * block * k.co);
  const uint64_t tiles = winograd_tiles(k.m, oh, ow);
  for (uint64_t t0 = 0; t0 < tiles; t0 += block) {
    winograd_input_transform(k.m, x.data(), k.h, k.w, k.ci, k.pad, t0, block, v.data());
    for (uint32_t p = 0; p < n * n; ++p) {
      for (uint32_t t = 0; t < block; ++t) {
        for (uint32_t o = 0; o < k.co; ++o) {
          double s = 0;
          for (uint32_t c = 0; c < k.ci; ++c) {
            s += double{v[(size_t{p} * block + t) * k.ci + c]} *
                 u[(size_t{p} * k.ci + c) * k.co + o];
          }
          mo[(size_t{p} * block + t) * k.co + o] = static_cast<float>(s);
        }
      }
    }
    winograd_output_transform(k.m, mo.data(), b.data(), k.lo, k.hi, oh, ow, k.co, stride, t0, block,
                              y->data() + offset);
  }
}

// Max |winograd - direct| over max |direct|, the output checked in a wider buffer whose other
// channels must stay untouched.
double relative_error(const Case& k, uint32_t block) {
  std::mt19937 rng(k.m * 1000 + k.h * 10 + k.ci);
  std::normal_distribution<float> nd(0.f, 1.f);
  std::vector<float> x(size_t{k.h} * k.w * k.ci), f(size_t{k.co} * 9 * k.ci), b(k.co);
  for (float& e : x) e = nd(rng);
  for (float& e : f) e = nd(rng) / std::sqrt(9.f * k.ci);
  for (float& e : b) e = 0.1f * nd(rng);
  const std::vector<double> ref = direct(k, x, f, b);
  const size_t pixels = ref.size() / k.co, stride = k.co + 16, offset = 8;
  std::vector<float> y(pixels * stride + offset, 12345.f);
  winograd(k, x, f, b, block, stride, offset, &y);
  double scale = 0, err = 0;
  for (size_t p = 0; p < pixels; ++p) {
    for (uint32_t o = 0; o < k.co; ++o) {
      const double r = ref[p * k.co + o];
      scale = std::max(scale, std::fabs(r));
      err = std::max(err, std::fabs(y[offset + p * stride + o] - r));
    }
    for (size_t o = k.co; o < stride; ++o) EXPECT_EQ(y[offset + p * stride + o], 12345.f);
  }
  EXPECT_GE(scale, 0.25);  // not a degenerate (all-zero) output
  return err / scale;
}

constexpr float kInf = INFINITY;

TEST(WinogradConvTest, F23MatchesDirectConvolution) {
  if (!winograd_available()) GTEST_SKIP() << "no AVX-512F: transforms not built for this CPU";
  EXPECT_LT(relative_error({2, 7, 7, 16, 32, 1, -kInf, kInf}, 5), 1e-5);   // odd plane
  EXPECT_LT(relative_error({2, 8, 6, 32, 16, 1, -kInf, kInf}, 64), 1e-5);  // one block
  EXPECT_LT(relative_error({2, 9, 6, 16, 16, 0, -kInf, kInf}, 3), 1e-5);   // padding 0
}

TEST(WinogradConvTest, F43MatchesDirectConvolution) {
  if (!winograd_available()) GTEST_SKIP() << "no AVX-512F: transforms not built for this CPU";
  EXPECT_LT(relative_error({4, 7, 7, 16, 32, 1, -kInf, kInf}, 1), 5e-5);
  EXPECT_LT(relative_error({4, 13, 10, 32, 16, 1, -kInf, kInf}, 4), 5e-5);
  EXPECT_LT(relative_error({4, 10, 9, 16, 16, 0, -kInf, kInf}, 7), 5e-5);
}

TEST(WinogradConvTest, OutputIsClamped) {
  if (!winograd_available()) GTEST_SKIP() << "no AVX-512F: transforms not built for this CPU";
  EXPECT_LT(relative_error({2, 6, 6, 16, 16, 1, 0.f, 0.5f}, 4), 1e-5);
  EXPECT_LT(relative_error({4, 6, 6, 16, 16, 1, -0.25f, 0.25f}, 4), 5e-5);
}

// Found by xnnpack_blob_fuzz (UBSan): a payload's constant region need not be float-aligned,
// and the filter transform read the filter as floats. It reads bytewise now; the sanitizer
// suite (--config=asan, UBSan's alignment check) fails without that.
TEST(WinogradConvTest, FilterTransformReadsMisalignedFilters) {
  const uint32_t ci = 16, co = 16;
  std::vector<float> f(size_t{co} * 9 * ci);
  for (size_t i = 0; i < f.size(); ++i) f[i] = float(int(i % 13) - 6) * 0.125f;
  std::vector<uint8_t> bytes(f.size() * sizeof(float) + 1);
  std::memcpy(bytes.data() + 1, f.data(), f.size() * sizeof(float));
  for (const uint32_t m : {2u, 4u}) {
    const size_t n = (m + 2) * (m + 2) * size_t{ci} * co;
    std::vector<float> want(n), got(n);
    winograd_transform_filter(m, f.data(), ci, co, want.data());
    winograd_transform_filter(m, reinterpret_cast<const float*>(bytes.data() + 1), ci, co, got.data());
    EXPECT_EQ(std::memcmp(want.data(), got.data(), n * sizeof(float)), 0) << "m " << m;
  }
}

TEST(WinogradConvTest, TileRuleOnPeerModelLayers) {
  const uint64_t l2 = 2 << 20;                             // a 2 MB L2
  EXPECT_EQ(winograd_tile(64, 64, 28, 28, 32, l2), 4u);    // ResNet-18 layer1 (112x112 input)
  EXPECT_EQ(winograd_tile(128, 128, 14, 14, 32, l2), 2u);  // layer2: F(4,3)'s 2.4 MB > 1.5 MB
  EXPECT_EQ(winograd_tile(256, 256, 7, 7, 32, l2), 0u);    // layer3: direct filter 2.4 MB
  EXPECT_EQ(winograd_tile(128, 128, 14, 14, 32, 1 << 20), 2u);  // 1 MB L2: direct 590 KB fits
  EXPECT_EQ(winograd_tile(192, 192, 14, 14, 32, 1 << 20), 0u);  // 1.3 MB does not
  EXPECT_EQ(winograd_tile(32, 32, 32, 32, 32, l2), 4u);    // narrow ResNet
  EXPECT_EQ(winograd_tile(128, 128, 8, 8, 32, l2), 2u);
  EXPECT_EQ(winograd_tile(16, 16, 64, 64, 32, l2), 0u);  // paired convolution's layer
  EXPECT_EQ(winograd_tile(16, 64, 15, 15, 32, l2), 4u);  // SqueezeNet expand3x3
  EXPECT_EQ(winograd_tile(32, 128, 7, 7, 32, l2), 4u);   // 49 of 64 tile pixels are real
  EXPECT_EQ(winograd_tile(48, 192, 3, 3, 32, l2), 0u);   // 9 of 16 (F(2,3)): padding
  EXPECT_EQ(winograd_tile(24, 64, 16, 16, 32, l2), 0u);  // channels not a multiple of 16
  EXPECT_EQ(winograd_tile(64, 64, 28, 28, 32, 0), 0u);   // L2 size unknown
}

}  // namespace
}  // namespace ember::backends::xnnpack
