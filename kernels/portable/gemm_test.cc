// sgemm against a plain double-precision triple loop, over shapes that take
// each path: few rows (matrix-vector), few columns (dot products against B^T,
// including depths longer than one transposed chunk), and the blocked kernel;
// with biases, alpha, beta and transposed operands.
#include "kernels/portable/util/gemm.h"

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

#include "gtest/gtest.h"

namespace ember::kernels::portable {
namespace {

struct Case {
  int64_t m, n, k;
  bool a_t, b_t;  // operands stored transposed
  float alpha, beta;
  bool bias_m, bias_n;
};

void check(const Case& t) {
  std::mt19937 rng(unsigned(t.m * 131 + t.n * 17 + t.k));
  std::uniform_real_distribution<float> d(-1.0f, 1.0f);
  std::vector<float> a(size_t(t.m * t.k)), b(size_t(t.k * t.n)), c(size_t(t.m * t.n));
  std::vector<float> bm(size_t(t.m)), bn(size_t(t.n));
  for (auto* v : {&a, &b, &c, &bm, &bn}) {
    for (float& x : *v) x = d(rng);
  }
  std::vector<double> want(c.size());
  for (int64_t i = 0; i < t.m; ++i) {
    for (int64_t j = 0; j < t.n; ++j) {
      double s = 0;
      for (int64_t p = 0; p < t.k; ++p) {
        const double av = t.a_t ? a[size_t(p * t.m + i)] : a[size_t(i * t.k + p)];
        const double bv = t.b_t ? b[size_t(j * t.k + p)] : b[size_t(p * t.n + j)];
        s += av * bv;
      }
      double v = t.alpha * s + t.beta * c[size_t(i * t.n + j)];
      if (t.bias_m) v += bm[size_t(i)];
      if (t.bias_n) v += bn[size_t(j)];
      want[size_t(i * t.n + j)] = v;
    }
  }
  GemmArgs g;
  g.m = t.m;
  g.n = t.n;
  g.k = t.k;
  g.a = a.data();
  g.a_rs = t.a_t ? 1 : t.k;
  g.a_cs = t.a_t ? t.m : 1;
  g.b = b.data();
  g.b_rs = t.b_t ? 1 : t.n;
  g.b_cs = t.b_t ? t.k : 1;
  g.c = c.data();
  g.c_rs = t.n;
  g.alpha = t.alpha;
  g.beta = t.beta;
  g.bias_m = t.bias_m ? bm.data() : nullptr;
  g.bias_n = t.bias_n ? bn.data() : nullptr;
  sgemm(g, nullptr);
  const double tol = 1e-5 * double(t.k + 4);
  for (size_t q = 0; q < c.size(); ++q) {
    ASSERT_NEAR(c[q], want[q], tol) << "m=" << t.m << " n=" << t.n << " k=" << t.k
                                    << " at " << q;
  }
}

TEST(Sgemm, FewRowsMatchesReference) {
  for (int64_t m : {1, 2}) {
    for (int64_t n : {1, 7, 16, 33, 2100}) {
      for (int64_t k : {1, 3, 4, 9, 130}) check({m, n, k, false, false, 1.0f, 0.0f, false, true});
    }
  }
  check({1, 1000, 1280, false, false, 0.5f, 2.0f, true, true});
}

TEST(Sgemm, FewColumnsMatchesReference) {
  for (int64_t n : {1, 2, 3, 4, 5, 8, 15, 16}) {
    for (int64_t m : {3, 4, 9, 64}) {
      for (int64_t k : {1, 7, 16, 17, 100}) check({m, n, k, false, false, 1.0f, 0.0f, true, false});
    }
  }
  check({37, 4, 2500, false, true, 1.5f, 0.0f, true, true});   // three B^T chunks
  check({20, 9, 1025, false, false, 1.0f, -1.0f, false, true});  // beta, chunk tail
}

TEST(Sgemm, BlockedMatchesReference) {
  check({70, 300, 270, false, false, 1.0f, 0.0f, true, false});
  check({5, 40, 33, true, true, 2.0f, 0.5f, true, true});  // strided A: blocked path
}

// Products that overflow to +inf and -inf must sum to NaN (as separately rounded products
// do in PyTorch), on every path: fused multiply-adds alone would give inf.
TEST(Sgemm, OverflowingProductsGiveNan) {
  for (int64_t m : {1, 8}) {
    for (int64_t n : {1, 5, 40}) {
      const int64_t k = 2;
      std::vector<float> a(size_t(m * k)), b(size_t(k * n)), c(size_t(m * n), 0.0f);
      for (int64_t i = 0; i < m; ++i) a[size_t(i * k)] = a[size_t(i * k + 1)] = 3e38f;
      for (int64_t j = 0; j < n; ++j) {
        b[size_t(j)] = 10.0f;
        b[size_t(n + j)] = -10.0f;
      }
      sgemm(row_major_gemm(m, n, k, a.data(), b.data(), c.data()), nullptr);
      for (float v : c) ASSERT_TRUE(std::isnan(v)) << "m=" << m << " n=" << n << " got " << v;
    }
  }
}

}  // namespace
}  // namespace ember::kernels::portable
