// The aarch64 NEON GEMM: it runs (sgemm_neon reports true on aarch64), it is what
// sgemm picks there (sgemm's outputs are bit-identical to it and, because it fuses
// multiply-adds, not to the unfused portable build), its values match a plain
// double-precision triple loop, and sgemm repairs its overflowed products into
// PyTorch's NaN. On other targets sgemm_neon reports false and the test skips.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "gtest/gtest.h"
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {
namespace {

struct Inputs {
  int64_t m, n, k;
  std::vector<float> a, b;
};

Inputs random_inputs(int64_t m, int64_t n, int64_t k, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  Inputs in{m, n, k, std::vector<float>(size_t(m * k)), std::vector<float>(size_t(k * n))};
  for (float& x : in.a) x = d(rng);
  for (float& x : in.b) x = d(rng);
  return in;
}

std::vector<float> run(bool (*fn)(const GemmArgs&, runtime::ThreadPool*), Inputs& in) {
  std::vector<float> c(size_t(in.m * in.n), 0.0f);
  EXPECT_TRUE(fn(row_major_gemm(in.m, in.n, in.k, in.a.data(), in.b.data(), c.data()), nullptr));
  return c;
}

bool neon_available() {
  float a = 1.0f, b = 1.0f, c = 0.0f;
  return sgemm_neon(row_major_gemm(1, 1, 1, &a, &b, &c), nullptr);
}

TEST(SgemmNeon, PickedBySgemmAndMatchesDoubleReference) {
  if (!neon_available()) GTEST_SKIP() << "not an aarch64 build";
  // Shapes through the blocked kernel (tile edges of 6 x 8, a depth past one 256 block)
  // and the skinny paths.
  const int64_t shapes[][3] = {{37, 45, 300}, {6, 8, 1}, {72, 256, 17}, {1, 40, 70}, {50, 2, 90}};
  int fused_differences = 0;
  for (const auto& s : shapes) {
    Inputs in = random_inputs(s[0], s[1], s[2], unsigned(s[0] * 7 + s[1] * 3 + s[2]));
    const std::vector<float> neon = run(&sgemm_neon, in);
    std::vector<float> picked(neon.size(), 0.0f);
    sgemm(row_major_gemm(in.m, in.n, in.k, in.a.data(), in.b.data(), picked.data()), nullptr);
    std::vector<float> portable(neon.size(), 0.0f);
    sgemm_portable(row_major_gemm(in.m, in.n, in.k, in.a.data(), in.b.data(), portable.data()),
                   nullptr);
    ASSERT_EQ(0, std::memcmp(neon.data(), picked.data(), neon.size() * sizeof(float)))
        << "sgemm did not take the NEON path for " << s[0] << "x" << s[1] << "x" << s[2];
    for (int64_t i = 0; i < in.m; ++i) {
      for (int64_t j = 0; j < in.n; ++j) {
        double want = 0;
        for (int64_t p = 0; p < in.k; ++p) {
          want += double(in.a[size_t(i * in.k + p)]) * double(in.b[size_t(p * in.n + j)]);
        }
        const float got = neon[size_t(i * in.n + j)];
        ASSERT_NEAR(got, want, 1e-5 * double(in.k)) << "C[" << i << "][" << j << "]";
        if (got != portable[size_t(i * in.n + j)]) ++fused_differences;
      }
    }
  }
  // Fused and separately rounded products differ in the last bit somewhere in
  // thousands of outputs: if none differ, the fused path did not run.
  EXPECT_GT(fused_differences, 0);
}

TEST(SgemmNeon, OverflowedProductsAreRepairedToNan) {
  if (!neon_available()) GTEST_SKIP() << "not an aarch64 build";
  // 3e38 * 10 overflows: fused, the sum is inf; PyTorch's inf + -inf is NaN.
  const int64_t m = 7, n = 9, k = 2;
  std::vector<float> a(size_t(m * k), 3e38f), b(size_t(k * n)), c(size_t(m * n), 0.0f);
  for (int64_t j = 0; j < n; ++j) {
    b[size_t(j)] = 10.0f;
    b[size_t(n + j)] = -10.0f;
  }
  std::vector<float> raw(c.size(), 0.0f);
  ASSERT_TRUE(sgemm_neon(row_major_gemm(m, n, k, a.data(), b.data(), raw.data()), nullptr));
  EXPECT_TRUE(std::isinf(raw[0])) << "expected the fused kernel's inf, got " << raw[0];
  sgemm(row_major_gemm(m, n, k, a.data(), b.data(), c.data()), nullptr);
  for (float v : c) ASSERT_TRUE(std::isnan(v)) << v;
}

}  // namespace
}  // namespace ember::kernels::portable
