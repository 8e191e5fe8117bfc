// aten::linear.out against a plain double-precision loop (out[i][n] = sum_k x[i][k] w[n][k] +
// b[n]) for one input row (the decode step's n dot products) and several rows (the GEMM reading
// the weight in place), with and without bias, and shapes the kernel must refuse.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "kernels/portable/ops/matmul.h"

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;

struct Buffer {
  Buffer(std::vector<int64_t> shape, std::vector<float> values)
      : data(std::move(values)), sizes(shape.begin(), shape.end()), order(shape.size()),
        strides(shape.size()) {
    int64_t st = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      order[i] = static_cast<runtime::DimOrderType>(i);
      strides[i] = static_cast<runtime::StridesType>(st);
      st *= shape[i];
    }
    tensor = runtime::Tensor(ScalarType::Float, shape.size(), sizes.data(), order.data(),
                             strides.data(), data.data(), runtime::ShapeDynamism::DynamicBound);
  }
  std::vector<float> data;
  std::vector<runtime::SizesType> sizes;
  std::vector<runtime::DimOrderType> order;
  std::vector<runtime::StridesType> strides;
  runtime::Tensor tensor;
};

std::vector<float> ramp(size_t n, float scale, float offset) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = std::sin(float(i) * scale + offset);
  return v;
}

void check(int64_t m, int64_t k, int64_t n, bool with_bias) {
  SCOPED_TRACE(testing::Message() << "m=" << m << " k=" << k << " n=" << n << " bias=" << with_bias);
  Buffer x({1, m, k}, ramp(size_t(m * k), 0.37f, 0.1f));
  Buffer w({n, k}, ramp(size_t(n * k), 0.11f, 0.7f));
  Buffer b({n}, ramp(size_t(n), 0.5f, 0.3f));
  Buffer out({1, m, n}, std::vector<float>(size_t(m * n), NAN));
  runtime::KernelRuntimeContext ctx;
  linear_out(ctx, x.tensor, w.tensor, with_bias ? &b.tensor : nullptr, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  ASSERT_EQ(out.tensor.size(2), n);
  for (int64_t i = 0; i < m; ++i) {
    for (int64_t j = 0; j < n; ++j) {
      double ref = with_bias ? b.data[size_t(j)] : 0.0;
      for (int64_t p = 0; p < k; ++p) ref += double(x.data[size_t(i * k + p)]) * w.data[size_t(j * k + p)];
      ASSERT_NEAR(out.data[size_t(i * n + j)], ref, 1e-4 * (1 + std::fabs(ref))) << i << "," << j;
    }
  }
}

TEST(LinearTest, OneRowIsDotProductsOverWeightRows) {
  for (bool bias : {false, true}) {
    check(1, 576, 1000, bias);
    check(1, 7, 33, bias);
  }
}

TEST(LinearTest, SeveralRowsReadTheWeightInPlace) {
  for (bool bias : {false, true}) {
    check(5, 576, 300, bias);
    check(3, 9, 17, bias);
  }
}

TEST(LinearTest, MismatchedShapesAreErrors) {
  Buffer x({2, 3}, std::vector<float>(6, 1.f));
  Buffer w({4, 5}, std::vector<float>(20, 1.f));
  Buffer out({2, 4}, std::vector<float>(8, 0.f));
  runtime::KernelRuntimeContext ctx;
  linear_out(ctx, x.tensor, w.tensor, nullptr, out.tensor);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  Buffer w2({4, 3}, std::vector<float>(12, 1.f));
  Buffer bias({3}, std::vector<float>(3, 1.f));
  runtime::KernelRuntimeContext ctx2;
  linear_out(ctx2, x.tensor, w2.tensor, &bias.tensor, out.tensor);
  EXPECT_EQ(ctx2.failure_state(), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::kernels::portable
