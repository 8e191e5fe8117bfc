// Tests the portable registration table and the GEMM kernel variants with
// hand-computed products.
#include "kernels/portable/register_kernels.h"

#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {
namespace {

TEST(RegisterKernelsTest, RegistersTheCoreSetOnce) {
  runtime::FixedKernelRegistry<1024> registry;
  ASSERT_EQ(register_kernels(registry), runtime::Error::Ok);
  EXPECT_GE(registry.size(), 180u);
  for (const char* name : {"aten::add.out", "aten::convolution.out", "aten::_softmax.out",
                           "dim_order_ops::_to_dim_order_copy.out", "aten::copy_",
                           "aten::index_put_", "et_copy::_h2d_copy.out"}) {
    EXPECT_TRUE(registry.contains(name)) << name;
  }
  // A second registration is a duplicate and registers nothing.
  EXPECT_EQ(register_kernels(registry), runtime::Error::RegistrationAlreadyRegistered);
}

TEST(RegisterKernelsTest, FullRegistryFailsCleanly) {
  runtime::FixedKernelRegistry<10> registry;
  EXPECT_EQ(register_kernels(registry), runtime::Error::RegistrationExceedingMaxKernels);
  EXPECT_EQ(registry.size(), 0u);
}

// [[1, 2, 3], [4, 5, 6]] x [[7, 8], [9, 10], [11, 12]] = [[58, 64], [139, 154]];
// with alpha 2, beta 1 on C = [[1, 1], [1, 1]] and bias_m = [10, 20]:
// [[127, 139], [299, 329]].
void check_variant(void (*run)(const GemmArgs&)) {
  const float a[6] = {1, 2, 3, 4, 5, 6};
  const float b[6] = {7, 8, 9, 10, 11, 12};
  const float bias[2] = {10, 20};
  float c[4] = {1, 1, 1, 1};
  GemmArgs g = row_major_gemm(2, 2, 3, a, b, c);
  g.alpha = 2;
  g.beta = 1;
  g.bias_m = bias;
  run(g);
  EXPECT_FLOAT_EQ(c[0], 127);
  EXPECT_FLOAT_EQ(c[1], 139);
  EXPECT_FLOAT_EQ(c[2], 299);
  EXPECT_FLOAT_EQ(c[3], 329);
}

TEST(GemmTest, PortableVariant) {
  check_variant([](const GemmArgs& g) { sgemm_portable(g, nullptr); });
}

TEST(GemmTest, DispatchedVariant) {
  check_variant([](const GemmArgs& g) { sgemm(g, nullptr); });
}

// Larger than one block in every dimension: A = ones(m, k), B[p][j] = j, so
// C[i][j] = k * j exactly.
TEST(GemmTest, MultiBlockProduct) {
  const int64_t m = 150, n = 300, k = 600;
  std::vector<float> a(m * k, 1.0f), b(k * n), c(m * n, -1.0f);
  for (int64_t p = 0; p < k; ++p) {
    for (int64_t j = 0; j < n; ++j) b[p * n + j] = float(j);
  }
  sgemm(row_major_gemm(m, n, k, a.data(), b.data(), c.data()), nullptr);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) ASSERT_EQ(c[i * n + j], float(k * j)) << i << "," << j;
  }
}

}  // namespace
}  // namespace ember::kernels::portable
