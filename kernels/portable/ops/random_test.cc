// rand.out / randn.out: the stream is deterministic per seed, calls advance it, dtypes and
// sizes are checked, and the values have the statistics of U[0, 1) and N(0, 1) (bounds
// derived by hand: for n samples the sample mean's standard error is sigma / sqrt(n), so
// with n = 200000 a 6-sigma band is 0.0039 for U[0,1) (sigma^2 = 1/12) and 0.0134 for
// N(0,1); the sample variance of N(0,1) has standard error sqrt(2/n) = 0.0032).
#include "kernels/portable/ops/random.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

namespace ember::kernels::portable {
namespace {

using runtime::ScalarType;

struct Buffer {
  explicit Buffer(std::vector<int64_t> shape, ScalarType t = ScalarType::Float,
                  size_t doubles = 1 << 20)
      : data(doubles), sizes(shape.begin(), shape.end()), order(shape.size()) {
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<runtime::DimOrderType>(i);
    strides.resize(shape.size());
    tensor = runtime::Tensor(t, shape.size(), sizes.data(), order.data(), strides.data(), data.data(),
                             runtime::ShapeDynamism::DynamicBound);
  }
  float at(size_t i) const { return reinterpret_cast<const float*>(data.data())[i]; }
  std::vector<double> data;
  std::vector<runtime::SizesType> sizes;
  std::vector<runtime::DimOrderType> order;
  std::vector<runtime::StridesType> strides;
  runtime::Tensor tensor;
};

std::vector<float> draw(bool normal, int64_t n) {
  Buffer b({n});
  runtime::KernelRuntimeContext ctx;
  const int64_t size[1] = {n};
  normal ? randn_out(ctx, {size, 1}, b.tensor) : rand_out(ctx, {size, 1}, b.tensor);
  EXPECT_EQ(ctx.failure_state(), runtime::Error::Ok);
  return std::vector<float>(reinterpret_cast<float*>(b.data.data()),
                            reinterpret_cast<float*>(b.data.data()) + n);
}

TEST(RandomTest, SameSeedSameValuesAndCallsAdvance) {
  set_random_seed(42);
  const std::vector<float> a = draw(false, 64), b = draw(false, 64);
  EXPECT_NE(a, b);
  set_random_seed(42);
  EXPECT_EQ(draw(false, 64), a);
  EXPECT_EQ(draw(false, 64), b);
  set_random_seed(43);
  EXPECT_NE(draw(false, 64), a);
  set_random_seed(7);
  const std::vector<float> n1 = draw(true, 32);
  set_random_seed(7);
  EXPECT_EQ(draw(true, 32), n1);
}

// The stream is splitmix64 (random.h): with seed 0 its first output is
// 0xE220A8397B1DCDAF (splitmix64's published first value for state 0), so the first
// float is (0xE220A8397B1DCDAF >> 40) / 2^24 = 0xE220A8 / 2^24.
TEST(RandomTest, FirstValueOfSeedZeroIsSplitmix64) {
  set_random_seed(0);
  const std::vector<float> v = draw(false, 1);
  EXPECT_EQ(v[0], static_cast<float>(0xE220A8) / 16777216.0f);
}

TEST(RandomTest, UniformStatistics) {
  set_random_seed(1);
  const int64_t n = 200000;
  const std::vector<float> v = draw(false, n);
  double sum = 0, sq = 0;
  for (float x : v) {
    ASSERT_GE(x, 0.0f);
    ASSERT_LT(x, 1.0f);
    sum += x;
    sq += double(x) * x;
  }
  const double mean = sum / n, var = sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.5, 0.0039);
  EXPECT_NEAR(var, 1.0 / 12, 0.002);
  int buckets[10] = {};
  for (float x : v) ++buckets[static_cast<int>(x * 10)];
  for (int k : buckets) EXPECT_NEAR(k, n / 10, 6 * std::sqrt(n * 0.1 * 0.9)) << "bucket";
}

TEST(RandomTest, NormalStatistics) {
  set_random_seed(2);
  const int64_t n = 200000;
  const std::vector<float> v = draw(true, n);
  double sum = 0, sq = 0;
  int within1 = 0;
  for (float x : v) {
    ASSERT_TRUE(std::isfinite(x));
    sum += x;
    sq += double(x) * x;
    within1 += std::fabs(x) < 1.0f;
  }
  const double mean = sum / n, var = sq / n - mean * mean;
  EXPECT_NEAR(mean, 0.0, 0.0134);
  EXPECT_NEAR(var, 1.0, 0.02);
  EXPECT_NEAR(double(within1) / n, 0.682689, 0.0063);  // P(|z| < 1), 6 sigma of a proportion
}

TEST(RandomTest, ResizesAndRejectsBadInput) {
  Buffer b({4, 4});
  runtime::KernelRuntimeContext ctx;
  const int64_t size[2] = {2, 3};
  rand_out(ctx, {size, 2}, b.tensor);
  EXPECT_EQ(ctx.failure_state(), runtime::Error::Ok);
  EXPECT_EQ(b.tensor.size(0), 2);
  EXPECT_EQ(b.tensor.size(1), 3);
  const int64_t negative[2] = {2, -1};
  runtime::KernelRuntimeContext ctx2;
  rand_out(ctx2, {negative, 2}, b.tensor);
  EXPECT_EQ(ctx2.failure_state(), runtime::Error::InvalidArgument);
  Buffer ints({4}, ScalarType::Int);
  runtime::KernelRuntimeContext ctx3;
  const int64_t four[1] = {4};
  randn_out(ctx3, {four, 1}, ints.tensor);
  EXPECT_NE(ctx3.failure_state(), runtime::Error::Ok);
  Buffer d({3}, ScalarType::Double);
  runtime::KernelRuntimeContext ctx4;
  const int64_t three[1] = {3};
  rand_out(ctx4, {three, 1}, d.tensor);
  EXPECT_EQ(ctx4.failure_state(), runtime::Error::Ok);
  for (int i = 0; i < 3; ++i) {
    const double x = reinterpret_cast<const double*>(d.data.data())[i];
    EXPECT_GE(x, 0.0);
    EXPECT_LT(x, 1.0);
  }
}

std::vector<int64_t> perm(int64_t n) {
  Buffer b({n}, ScalarType::Long, static_cast<size_t>(n > 0 ? n : 1));
  runtime::KernelRuntimeContext ctx;
  randperm_out(ctx, n, b.tensor);
  EXPECT_EQ(ctx.failure_state(), runtime::Error::Ok);
  EXPECT_EQ(b.tensor.size(0), n);
  const int64_t* p = reinterpret_cast<const int64_t*>(b.data.data());
  return std::vector<int64_t>(p, p + n);
}

// randperm.out: a permutation of 0..n-1, repeatable per seed, advancing the stream, and
// uniform: over 60000 draws of n = 3 each of the 6 orders appears 10000 times within 6 sigma
// (sigma = sqrt(60000 * 1/6 * 5/6) = 91), and over 20000 draws of n = 10 each value lands
// first 2000 times within 6 sigma (sqrt(20000 * 0.1 * 0.9) = 42).
TEST(RandomTest, RandpermIsASeededUniformPermutation) {
  set_random_seed(5);
  const std::vector<int64_t> a = perm(50), b = perm(50);
  std::vector<int64_t> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  for (int64_t i = 0; i < 50; ++i) EXPECT_EQ(sorted[i], i);
  EXPECT_NE(a, b);
  set_random_seed(5);
  EXPECT_EQ(perm(50), a);
  EXPECT_EQ(perm(0).size(), 0u);
  EXPECT_EQ(perm(1), std::vector<int64_t>{0});
  set_random_seed(6);
  std::map<std::vector<int64_t>, int> orders;
  for (int i = 0; i < 60000; ++i) ++orders[perm(3)];
  EXPECT_EQ(orders.size(), 6u);
  for (const auto& [order, count] : orders) EXPECT_NEAR(count, 10000, 6 * 91.3);
  int first[10] = {};
  for (int i = 0; i < 20000; ++i) ++first[perm(10)[0]];
  for (int k : first) EXPECT_NEAR(k, 2000, 6 * 42.5);
}

TEST(RandomTest, RandpermChecksNAgainstTheDtype) {
  Buffer i8({300}, ScalarType::Char);
  runtime::KernelRuntimeContext ctx;
  randperm_out(ctx, 200, i8.tensor);  // 199 does not fit int8
  EXPECT_EQ(ctx.failure_state(), runtime::Error::InvalidArgument);
  runtime::KernelRuntimeContext ctx2;
  randperm_out(ctx2, -1, i8.tensor);
  EXPECT_EQ(ctx2.failure_state(), runtime::Error::InvalidArgument);
  Buffer f({8}, ScalarType::Float);
  runtime::KernelRuntimeContext ctx3;
  randperm_out(ctx3, 8, f.tensor);
  EXPECT_EQ(ctx3.failure_state(), runtime::Error::Ok);
  std::vector<float> v(reinterpret_cast<float*>(f.data.data()),
                       reinterpret_cast<float*>(f.data.data()) + 8);
  std::sort(v.begin(), v.end());
  for (int i = 0; i < 8; ++i) EXPECT_EQ(v[i], float(i));
  Buffer flags({4}, ScalarType::Bool);
  runtime::KernelRuntimeContext ctx4;
  randperm_out(ctx4, 4, flags.tensor);
  EXPECT_EQ(ctx4.failure_state(), runtime::Error::InvalidType);
}

}  // namespace
}  // namespace ember::kernels::portable
