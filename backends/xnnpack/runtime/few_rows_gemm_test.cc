// FewRowsGemm against the product written from the definition in double (the unpacked [N][K]
// filter), for every row count 1..12, column counts with partial 32-column panels, row
// strides, clamps and no bias; the AVX-512F form and the portable loop give the same bits.
#include "backends/xnnpack/runtime/few_rows_gemm.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <vector>

namespace ember::backends::xnnpack {
namespace {

void check(uint32_t m, uint32_t n, uint32_t k, size_t x_stride, size_t y_stride, bool with_bias, float lo,
           float hi) {
  SCOPED_TRACE(testing::Message() << "m " << m << " n " << n << " k " << k << " bias " << with_bias);
  std::mt19937 rng(m * 131 + n * 7 + k);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> x(m * x_stride), w(size_t{n} * k), bias(with_bias ? n : 0);
  for (float& v : x) v = u(rng);
  for (float& v : w) v = u(rng);
  for (float& v : bias) v = u(rng);
  std::vector<float> packed(few_rows_packed_floats(n, k));
  pack_few_rows_filter(w.data(), n, k, packed.data());
  const float sentinel = 12345.f;  // columns past n of each row must stay untouched
  std::vector<float> fast(m * y_stride, sentinel), portable(m * y_stride, sentinel);
  const float* b = with_bias ? bias.data() : nullptr;
  few_rows_gemm(m, n, k, x.data(), x_stride, packed.data(), b, lo, hi, fast.data(), y_stride);
  few_rows_gemm(m, n, k, x.data(), x_stride, packed.data(), b, lo, hi, portable.data(), y_stride, true);
  double max_err = 0, max_ref = 0;
  for (uint32_t i = 0; i < m; ++i) {
    for (uint32_t j = 0; j < y_stride; ++j) {
      const size_t at = i * y_stride + j;
      ASSERT_EQ(fast[at], portable[at]) << "row " << i << " column " << j << ": vectorized and portable differ";
      if (j >= n) {
        ASSERT_EQ(fast[at], sentinel) << "row " << i << " column " << j << " written past n";
        continue;
      }
      double acc = with_bias ? bias[j] : 0.0;
      for (uint32_t kk = 0; kk < k; ++kk) acc += double(x[i * x_stride + kk]) * w[size_t{j} * k + kk];
      const double ref = std::fmin(std::fmax(acc, lo), hi);
      max_err = std::fmax(max_err, std::fabs(fast[at] - ref));
      max_ref = std::fmax(max_ref, std::fabs(ref));
    }
  }
  EXPECT_LT(max_err, 2e-6 * std::sqrt(double(k)) * std::fmax(1.0, max_ref)) << "max |ref| " << max_ref;
  EXPECT_GT(max_ref, 0.25) << "the case must not be all clamped to zero";
}

TEST(FewRowsGemm, EveryRowCountOnSqueezeNetsClassifier) {
  std::printf("vectorized (AVX-512F): %s\n", few_rows_vectorized() ? "yes" : "no");
  for (uint32_t m = 1; m <= kFewRowsMax; ++m) check(m, 1000, 256, 256, 1000, true, 0.f, INFINITY);
}

TEST(FewRowsGemm, PartialPanelsStridesClampsAndNoBias) {
  const float inf = INFINITY;
  check(9, 17, 7, 9, 20, true, -inf, inf);     // one partial panel, 17 of 32 columns
  check(5, 40, 33, 40, 48, false, -inf, inf);  // a full and a partial panel
  check(12, 64, 1, 3, 64, true, -0.5f, 0.5f);  // k = 1, clamped both sides
  check(3, 1, 100, 100, 2, true, -inf, inf);   // one column
}

TEST(FewRowsGemm, PackingIsPanelKColumn) {
  // w[j][k] = 1000 j + k; packed[p][k][c] = w[32 p + c][k], zero past n.
  const uint32_t n = 40, k = 3;
  std::vector<float> w(n * k), packed(few_rows_packed_floats(n, k));
  for (uint32_t j = 0; j < n; ++j) {
    for (uint32_t kk = 0; kk < k; ++kk) w[j * k + kk] = float(1000 * j + kk);
  }
  pack_few_rows_filter(w.data(), n, k, packed.data());
  ASSERT_EQ(packed.size(), 2u * 32 * 3);
  EXPECT_EQ(packed[(0 * 3 + 2) * 32 + 5], 5002.f);        // panel 0, k 2, column 5
  EXPECT_EQ(packed[(1 * 3 + 1) * 32 + 7], 39001.f);       // panel 1, k 1, column 39
  EXPECT_EQ(packed[(1 * 3 + 0) * 32 + 8], 0.f);           // column 40: padding
}

}  // namespace
}  // namespace ember::backends::xnnpack
