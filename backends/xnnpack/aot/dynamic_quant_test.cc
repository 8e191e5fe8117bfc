// Dynamically quantized fully connected through Ember's own serializer and the runtime:
// weights quantized by quantize_weight (checked by hand on a small row), written by
// XnnpackGraphBuilder as qcint8 / qcint4 / qbint4 constants behind an fp32 -> qdint8
// XNNConvert, run by XnnpackBackend, and compared with a float reference computed here in
// double from the dequantized weights. The tolerance is derived, not fitted: XNNPACK
// quantizes each input row asymmetrically over [min(x, 0), max(x, 0)] to 256 levels, so each
// input is off by at most half a step s_r = (max - min) / 255, and output j by at most
// s_r / 2 * sum_k |w_jk| (plus float rounding).
#include "backends/xnnpack/aot/dynamic_quant.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <vector>

#include "backends/xnnpack/aot/dq_linear_blob.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"
#include "runtime/core/memory_allocator.h"

namespace ember::backends::xnnpack {
namespace {

namespace fb = fb_xnnpack;

TEST(DynamicQuantTest, Int8AndInt4RowsByHand) {
  // Row [1, -2.2, 0.5, 4]: max |w| = 4.
  const float w[4] = {1.f, -2.2f, 0.5f, 4.f};
  auto q8 = quantize_weight(w, 1, 4, WeightScheme::Int8PerChannel);
  ASSERT_TRUE(q8.ok());
  // scale 4/127; w / scale = 31.75, -69.85, 15.875, 127 -> 32, -70, 16, 127.
  EXPECT_FLOAT_EQ(q8->scales[0], 4.f / 127.f);
  EXPECT_EQ(q8->bytes, (std::vector<uint8_t>{32, uint8_t(-70), 16, 127}));
  EXPECT_EQ(q8->datatype, fb::XNNDatatype::xnn_datatype_qcint8);
  auto q4 = quantize_weight(w, 1, 4, WeightScheme::Int4PerChannel);
  ASSERT_TRUE(q4.ok());
  // scale 4/7; w / scale = 1.75, -3.85, 0.875, 7 -> 2, -4, 1, 7; +8 -> 10, 4, 9, 15;
  // packed low nibble first: 0x4A, 0xF9.
  EXPECT_FLOAT_EQ(q4->scales[0], 4.f / 7.f);
  EXPECT_EQ(q4->bytes, (std::vector<uint8_t>{0x4A, 0xF9}));
  EXPECT_FLOAT_EQ(q4->dequantized[1], -4.f * 4.f / 7.f);
}

TEST(DynamicQuantTest, BlockScalesAreBf16AndBlockSizesAreChecked) {
  std::vector<float> w(2 * 64);
  for (size_t i = 0; i < w.size(); ++i) w[i] = float(i % 13) * 0.37f - 2.f;
  auto q = quantize_weight(w.data(), 2, 64, WeightScheme::Int4Blockwise, 32);
  ASSERT_TRUE(q.ok());
  ASSERT_EQ(q->scales.size(), 4u);  // 2 channels x 2 blocks
  for (float s : q->scales) {
    uint32_t u;
    std::memcpy(&u, &s, 4);
    EXPECT_EQ(u & 0xFFFFu, 0u) << s << " is not a bf16 value";
  }
  EXPECT_FALSE(quantize_weight(w.data(), 2, 64, WeightScheme::Int4Blockwise, 48).ok());
  EXPECT_FALSE(quantize_weight(w.data(), 1, 128, WeightScheme::Int4Blockwise, 256).ok());
  EXPECT_FALSE(quantize_weight(w.data(), 2, 64, WeightScheme::Int4Blockwise, 128).ok());
  WeightScheme s;
  uint32_t b;
  ASSERT_TRUE(parse_weight_scheme("int4-b128", &s, &b));
  EXPECT_EQ(s, WeightScheme::Int4Blockwise);
  EXPECT_EQ(b, 128u);
  EXPECT_FALSE(parse_weight_scheme("int3", &s, &b));
}

// x [m, k] fp32 -> XNNConvert -> qdint8 -> XNNFullyConnected(w, bias) -> y [m, n] fp32.
std::vector<uint8_t> dq_linear_blob(uint32_t m, uint32_t k, uint32_t n, const QuantizedWeight& q,
                                    const std::vector<float>& bias) {
  auto blob = xnnpack::dq_linear_blob(m, k, n, &q, {}, bias);
  EXPECT_TRUE(blob.ok()) << aot::format_error(blob.error());
  return blob.ok() ? blob.get() : std::vector<uint8_t>{};
}

std::vector<float> run(const std::vector<uint8_t>& blob, uint32_t m, uint32_t k, uint32_t n,
                       std::vector<float> x) {
  std::vector<uint8_t> arena(1 << 22);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ictx(&allocator, "forward", nullptr);
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto h = backend_instance().init(ictx, &buffer, {});
  EXPECT_TRUE(h.ok()) << runtime::last_error_message();
  if (!h.ok()) return {};
  int32_t sin[2] = {int32_t(m), int32_t(k)}, sout[2] = {int32_t(m), int32_t(n)}, st[2][2];
  uint8_t order[2] = {0, 1};
  x.resize(size_t(m) * k + 64, 0.f);  // XNNPACK may read past the end
  std::vector<float> y(size_t(m) * n, NAN);
  runtime::Tensor tin(runtime::ScalarType::Float, 2, sin, order, st[0], x.data());
  runtime::Tensor tout(runtime::ScalarType::Float, 2, sout, order, st[1], y.data());
  runtime::EValue ein(&tin), eout(&tout);
  runtime::EValue* args[] = {&ein, &eout};
  runtime::BackendExecutionContext ectx(nullptr, "forward", nullptr);
  EXPECT_EQ(backend_instance().execute(ectx, h.get(), {args, 2}), runtime::Error::Ok)
      << runtime::last_error_message();
  backend_instance().destroy(h.get());
  return y;
}

struct Case {
  const char* name;
  WeightScheme scheme;
  uint32_t block;
};

class DqLinear : public ::testing::TestWithParam<Case> {};

TEST_P(DqLinear, MatchesFloatReferenceWithinDerivedBound) {
  const Case c = GetParam();
  const uint32_t k = 256, n = 24;
  const std::vector<float> wf = pseudo_random(size_t(n) * k, 7);
  const std::vector<float> bias = pseudo_random(n, 11);
  auto q = quantize_weight(wf.data(), n, k, c.scheme, c.block);
  ASSERT_TRUE(q.ok()) << aot::format_error(q.error());
  for (uint32_t m : {1u, 5u}) {
    const std::vector<uint8_t> blob = dq_linear_blob(m, k, n, *q, bias);
    ASSERT_FALSE(blob.empty());
    std::vector<float> first;
    for (uint32_t seed : {3u, 5u}) {
      const std::vector<float> x = pseudo_random(size_t(m) * k, seed * 100 + m);
      const std::vector<float> y = run(blob, m, k, n, x);
      ASSERT_EQ(y.size(), size_t(m) * n);
      double max_tol = 0;
      for (uint32_t r = 0; r < m; ++r) {
        const float* xr = x.data() + size_t(r) * k;
        const float lo = std::min(0.f, *std::min_element(xr, xr + k));
        const float hi = std::max(0.f, *std::max_element(xr, xr + k));
        const double step = (double(hi) - lo) / 255.0;
        for (uint32_t j = 0; j < n; ++j) {
          double ref = bias[j], wsum = 0;
          for (uint32_t p = 0; p < k; ++p) {
            const double wv = q->dequantized[size_t(j) * k + p];
            ref += double(xr[p]) * wv;
            wsum += std::fabs(wv);
          }
          const double tol = step / 2 * wsum * 1.001 + 1e-4;
          max_tol = std::max(max_tol, tol);
          EXPECT_NEAR(y[size_t(r) * n + j], ref, tol)
              << c.name << " m=" << m << " r=" << r << " j=" << j;
        }
      }
      if (first.empty()) {
        first = y;
      } else {  // the two inputs' outputs differ by far more than the tolerance
        double diff = 0;
        for (size_t i = 0; i < y.size(); ++i)
          diff = std::max(diff, double(std::fabs(y[i] - first[i])));
        EXPECT_GT(diff, 10 * max_tol) << c.name;
      }
    }
  }
}

// The bound discriminates: the same 4-bit weights with each byte's two nibbles swapped (the
// other packing order) or with the block scales of two blocks exchanged break it.
TEST(DqLinearMutation, WrongPackingOrScalesBreakTheBound) {
  const uint32_t m = 2, k = 128, n = 8;
  const std::vector<float> wf = pseudo_random(size_t(n) * k, 7);
  const std::vector<float> bias(n, 0.f);
  const std::vector<float> x = pseudo_random(size_t(m) * k, 99);
  for (WeightScheme scheme : {WeightScheme::Int4PerChannel, WeightScheme::Int4Blockwise}) {
    auto q =
        quantize_weight(wf.data(), n, k, scheme, scheme == WeightScheme::Int4Blockwise ? 32 : 0);
    ASSERT_TRUE(q.ok());
    QuantizedWeight bad = *q;
    if (scheme == WeightScheme::Int4PerChannel) {
      for (uint8_t& b : bad.bytes) b = uint8_t((b >> 4) | (b << 4));
    } else {
      for (uint32_t o = 0; o < n; ++o) std::swap(bad.scales[o * 4], bad.scales[o * 4 + 3]);
    }
    const std::vector<float> y = run(dq_linear_blob(m, k, n, bad, bias), m, k, n, x);
    ASSERT_EQ(y.size(), size_t(m) * n);
    double worst = 0;  // largest error relative to the bound
    for (uint32_t r = 0; r < m; ++r) {
      const float* xr = x.data() + size_t(r) * k;
      const float lo = std::min(0.f, *std::min_element(xr, xr + k));
      const float hi = std::max(0.f, *std::max_element(xr, xr + k));
      for (uint32_t j = 0; j < n; ++j) {
        double ref = 0, wsum = 0;
        for (uint32_t p = 0; p < k; ++p) {
          ref += double(xr[p]) * q->dequantized[size_t(j) * k + p];
          wsum += std::fabs(q->dequantized[size_t(j) * k + p]);
        }
        const double tol = (double(hi) - lo) / 255.0 / 2 * wsum * 1.001 + 1e-4;
        worst = std::max(worst, std::fabs(y[size_t(r) * n + j] - ref) / tol);
      }
    }
    EXPECT_GT(worst, 1.0) << (scheme == WeightScheme::Int4PerChannel ? "swapped nibbles"
                                                                     : "swapped block scales");
  }
}

INSTANTIATE_TEST_SUITE_P(Schemes, DqLinear,
                         ::testing::Values(Case{"qc8w", WeightScheme::Int8PerChannel, 0},
                                           Case{"qc4w", WeightScheme::Int4PerChannel, 0},
                                           Case{"qb4w_32", WeightScheme::Int4Blockwise, 32},
                                           Case{"qb4w_64", WeightScheme::Int4Blockwise, 64},
                                           Case{"qb4w_128", WeightScheme::Int4Blockwise, 128}),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

}  // namespace
}  // namespace ember::backends::xnnpack
