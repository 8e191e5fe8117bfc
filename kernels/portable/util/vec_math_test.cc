// Accuracy of the vectorised exp against std::exp, the special values, agreement of the
// builds (portable vs AVX2, bit for bit), and the row functions against scalar formulas.
#include "kernels/portable/util/vec_math.h"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/portable/util/neon_paths.h"

namespace ember::kernels::portable {
namespace {

float from_bits(uint32_t b) {
  float f;
  std::memcpy(&f, &b, sizeof(f));
  return f;
}
uint32_t to_bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof(b));
  return b;
}

// Distance in units in the last place between two finite non-negative floats.
int64_t ulps(float a, float b) { return std::llabs(int64_t(to_bits(a)) - int64_t(to_bits(b))); }

// Every `step`-th float of [lo, hi] (by bit pattern, both signs).
std::vector<float> sample(float lo, float hi, uint32_t step) {
  std::vector<float> xs;
  for (uint32_t b = 0; b <= to_bits(hi); b += step) xs.push_back(from_bits(b));
  for (uint32_t b = 0x80000000u; b <= to_bits(lo); b += step) xs.push_back(from_bits(b));
  return xs;
}

TEST(VecMath, ExpAccuracyOverTheWholeRange) {
  // Every 61st float in [-104, 89]: ~35 million inputs, normal, subnormal and zero results.
  // An aarch64 build runs under qemu in CI (.ci/run_aarch64), where that takes minutes:
  // every 1,009th there (2.1 million), the same arithmetic per lane.
#if defined(__aarch64__)
  const std::vector<float> xs = sample(-104.0f, 89.0f, 1009);
#else
  const std::vector<float> xs = sample(-104.0f, 89.0f, 61);
#endif
  std::vector<float> ys(xs.size());
  vec_math().exp(xs.data(), ys.data(), int64_t(xs.size()));
  int64_t worst_normal = 0, worst_sub = 0;
  double worst_rel = 0;
  float worst_x = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const float want = std::exp(xs[i]);
    const float got = ys[i];
    ASSERT_FALSE(std::isnan(got)) << xs[i];
    if (std::isinf(want)) {
      ASSERT_TRUE(std::isinf(got)) << xs[i];
      continue;
    }
    const int64_t d = ulps(got, want);
    if (want >= std::numeric_limits<float>::min()) {
      if (d > worst_normal) worst_normal = d, worst_x = xs[i];
      const double rel = std::fabs(double(got) - double(want)) / double(want);
      if (rel > worst_rel) worst_rel = rel;
    } else if (d > worst_sub) {
      worst_sub = d;
    }
  }
  std::printf("exp (%s): %zu inputs, max %lld ulp (at x = %.9g), max relative error %.3g for "
              "normal results; max %lld ulp for subnormal results\n",
              vec_math().isa, xs.size(), static_cast<long long>(worst_normal), worst_x, worst_rel,
              static_cast<long long>(worst_sub));
  EXPECT_LE(worst_normal, 2);
  EXPECT_LT(worst_rel, 2.4e-7);
  EXPECT_LE(worst_sub, 1);
}

TEST(VecMath, ExpSpecialValues) {
  const float inf = std::numeric_limits<float>::infinity();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const float xs[] = {inf,      -inf,    nan,       0.0f,     -0.0f,    88.72283172607422f,
                      88.72283935546875f, 89.0f, 1e30f, -1e30f, -87.33654f, -100.0f,
                      -103.9f, -103.98f, -104.0f, -200.0f,
                      std::numeric_limits<float>::denorm_min(), -std::numeric_limits<float>::denorm_min(),
                      std::numeric_limits<float>::max(), -std::numeric_limits<float>::max()};
  const int n = sizeof(xs) / sizeof(xs[0]);
  float ys[n];
  vec_math().exp(xs, ys, n);
  for (int i = 0; i < n; ++i) {
    const float want = std::exp(xs[i]);
    if (std::isnan(want)) {
      EXPECT_TRUE(std::isnan(ys[i])) << xs[i];
    } else {
      EXPECT_LE(ulps(ys[i], want), 1) << "x = " << xs[i] << " got " << ys[i] << " want " << want;
    }
    EXPECT_EQ(to_bits(exp_f32(xs[i])), to_bits(ys[i])) << xs[i];
  }
  EXPECT_EQ(ys[0], inf);
  EXPECT_EQ(ys[1], 0.0f);
  EXPECT_EQ(ys[3], 1.0f);
  EXPECT_EQ(ys[4], 1.0f);
}

// The builds are the same arithmetic on different vector widths: identical bits, including
// tails shorter than a vector.
TEST(VecMath, BuildsAgreeBitForBit) {
  const VecMath* avx2 = vec_math_avx2() != nullptr ? vec_math_avx2() : vec_math_neon();
  if (avx2 == nullptr) GTEST_SKIP() << "no AVX2 or NEON build on this CPU/target";
  const VecMath& base = vec_math_portable();
  std::vector<float> xs = sample(-120.0f, 100.0f, 9973);
  xs.push_back(std::numeric_limits<float>::quiet_NaN());
  xs.push_back(std::numeric_limits<float>::infinity());
  xs.push_back(-std::numeric_limits<float>::infinity());
  const int64_t n = int64_t(xs.size());
  std::vector<float> a(n), b(n);
  using Fn = void (*)(const float*, float*, int64_t);
  const Fn fa[] = {base.exp, base.sigmoid, base.silu, base.gelu_erf, base.hardswish,
                   base.hardsigmoid};
  const Fn fb[] = {avx2->exp, avx2->sigmoid, avx2->silu, avx2->gelu_erf, avx2->hardswish,
                   avx2->hardsigmoid};
  for (size_t k = 0; k < sizeof(fa) / sizeof(fa[0]); ++k) {
    for (int64_t len : {n, int64_t(13), int64_t(3)}) {
      fa[k](xs.data(), a.data(), len);
      fb[k](xs.data(), b.data(), len);
      for (int64_t i = 0; i < len; ++i) {
        ASSERT_TRUE(to_bits(a[i]) == to_bits(b[i]) || (std::isnan(a[i]) && std::isnan(b[i])))
            << "function " << k << " x = " << xs[i];
      }
    }
  }
}

// On aarch64 vec_math() is the NEON build, and its calls are counted (util/neon_paths.h),
// so softmax, layer norm and the activations provably run there, not in the fallback.
TEST(VecMath, NeonBuildIsPickedAndCountedOnAarch64) {
#if defined(__aarch64__)
  ASSERT_NE(vec_math_neon(), nullptr);
  EXPECT_STREQ(vec_math().isa, "neon");
  const uint64_t before = neon_path_calls(NeonPath::VecMath);
  float x[5] = {0.0f, 1.0f, -1.0f, 2.0f, 88.0f}, y[5];
  vec_math().exp(x, y, 5);
  EXPECT_EQ(neon_path_calls(NeonPath::VecMath), before + 1);
  EXPECT_EQ(y[0], 1.0f);
#else
  EXPECT_EQ(vec_math_neon(), nullptr);
  EXPECT_EQ(neon_path_calls(NeonPath::VecMath), 0u);
#endif
}

// Row functions against their formulas in double with std::exp / std::erf.
TEST(VecMath, RowFunctionsMatchScalarFormulas) {
  std::vector<float> xs;
  for (int i = -4000; i <= 4000; ++i) xs.push_back(float(i) * 0.01f);  // [-40, 40]
  const int64_t n = int64_t(xs.size());
  std::vector<float> y(n);
  const VecMath& vm = vec_math();
  vm.sigmoid(xs.data(), y.data(), n);
  for (int64_t i = 0; i < n; ++i) {
    const double want = 1.0 / (1.0 + std::exp(-double(xs[i])));
    EXPECT_NEAR(y[i], want, 1e-7 + 4e-7 * want) << xs[i];
  }
  vm.silu(xs.data(), y.data(), n);
  for (int64_t i = 0; i < n; ++i) {
    const double want = double(xs[i]) / (1.0 + std::exp(-double(xs[i])));
    EXPECT_NEAR(y[i], want, 1e-7 + 4e-7 * std::fabs(want)) << xs[i];
  }
  vm.gelu_erf(xs.data(), y.data(), n);
  for (int64_t i = 0; i < n; ++i) {
    const double x = xs[i];
    const double want = 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0)));
    // Abramowitz-Stegun 7.1.26 (PyTorch's vectorised erf): |erf error| < 1.5e-7.
    EXPECT_NEAR(y[i], want, 1e-6 * (1.0 + std::fabs(x))) << xs[i];
  }
  std::vector<float> e(n);
  const float sum = vm.exp_shift_sum(xs.data(), 40.0f, e.data(), n);
  double want_sum = 0;
  for (int64_t i = 0; i < n; ++i) {
    const double want = std::exp(double(xs[i] - 40.0f));  // the kernel subtracts in float
    want_sum += want;
    EXPECT_NEAR(e[i], want, 3e-7 * want) << xs[i];
  }
  EXPECT_NEAR(sum, want_sum, 1e-5 * want_sum);
  const float inf = std::numeric_limits<float>::infinity();
  const float specials[] = {inf, -inf, std::numeric_limits<float>::quiet_NaN()};
  float out[3];
  vm.sigmoid(specials, out, 3);
  EXPECT_EQ(out[0], 1.0f);
  EXPECT_EQ(out[1], 0.0f);
  EXPECT_TRUE(std::isnan(out[2]));
  vm.silu(specials, out, 3);
  EXPECT_EQ(out[0], inf);
  EXPECT_TRUE(std::isnan(out[1]));  // -inf / (1 + inf), as PyTorch
  EXPECT_TRUE(std::isnan(out[2]));
}

}  // namespace
}  // namespace ember::kernels::portable
