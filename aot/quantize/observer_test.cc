// Observer arithmetic on hand-derived cases (the PyTorch-referenced check is
// tests/ptq:ptq_reference_test, which compares whole models with convert_pt2e's parameters).
#include "aot/quantize/observer.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

TEST(ObserverTest, AffineQParamsWidensToZeroAndRoundsHalfToEven) {
  // [-126.5/128, 128.5/128]: scale (255/128)/255 = 1/128 exactly, min/scale = -126.5 rounds
  // half to even to -126, so zp = -128 + 126 = -2 (half away from zero would give -1).
  AffineQParams q = affine_qparams(-126.5f / 128, 128.5f / 128, -128, 127, 1.0f / 4096);
  EXPECT_EQ(q.scale, 1.0f / 128);
  EXPECT_EQ(q.zero_point, -2);
  // [0.5, 2] widens to [0, 2]: zp = -128.
  q = affine_qparams(0.5f, 2.0f, -128, 127, 1.0f / 4096);
  EXPECT_FLOAT_EQ(q.scale, 2.0f / 255.0f);
  EXPECT_EQ(q.zero_point, -128);
  // All zeros: the eps floor.
  q = affine_qparams(0.0f, 0.0f, -128, 127, 1.0f / 4096);
  EXPECT_FLOAT_EQ(q.scale, 1.0f / 4096);
}

TEST(ObserverTest, SymmetricPerChannelScales) {
  const float w[] = {-2.0f, 1.0f, 0.25f, 0.5f};
  std::vector<float> s = symmetric_per_channel_scales(w, 4, 2, -127, 127, 1.0f / 4096);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_FLOAT_EQ(s[0], 2.0f / 127.0f);
  EXPECT_FLOAT_EQ(s[1], 0.5f / 127.0f);
}

TEST(ObserverTest, HistcPutsTheRightEdgeInTheLastBin) {
  const float x[] = {0.0f, 0.5f, 1.0f, 2.0f};
  std::vector<float> h = histc(x, 4, 2, 0.0, 1.0);  // 2.0 is outside and skipped
  ASSERT_EQ(h.size(), 2u);
  EXPECT_EQ(h[0], 1.0f);
  EXPECT_EQ(h[1], 2.0f);
}

TEST(ObserverTest, HistogramKeepsRangeAndCountsAcrossCalls) {
  HistogramObserver obs(8);
  const float a[] = {0.0f, 1.0f};
  const float b[] = {-1.0f, 1.0f};
  obs.observe(a, 2);
  obs.observe(b, 2);
  EXPECT_EQ(obs.min_val(), -1.0f);
  EXPECT_EQ(obs.max_val(), 1.0f);
  float total = 0;
  for (float v : obs.histogram()) total += v;
  EXPECT_FLOAT_EQ(total, 4.0f);
}

}  // namespace
}  // namespace ember::aot
