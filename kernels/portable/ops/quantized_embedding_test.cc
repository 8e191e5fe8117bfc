// quantized_decomposed::embedding_byte.out with values worked by hand: rows of int8 weights
// times their row's (or group's) scale, minus an optional zero point; indices out of range and
// weights outside the stated quant range fail with InvalidArgument.
#include "kernels/portable/ops/quantized_embedding.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;

template <typename T>
struct Buffer {
  Buffer(ScalarType dtype, std::vector<int64_t> shape, std::vector<T> values)
      : data(std::move(values)), sizes(shape.begin(), shape.end()), order(shape.size()),
        strides(shape.size()) {
    int64_t st = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      order[i] = static_cast<runtime::DimOrderType>(i);
      strides[i] = static_cast<runtime::StridesType>(st);
      st *= shape[i];
    }
    tensor = runtime::Tensor(dtype, shape.size(), sizes.data(), order.data(), strides.data(),
                             data.data(), runtime::ShapeDynamism::DynamicBound);
  }
  std::vector<T> data;
  std::vector<runtime::SizesType> sizes;
  std::vector<runtime::DimOrderType> order;
  std::vector<runtime::StridesType> strides;
  runtime::Tensor tensor;
};

TEST(QuantizedEmbeddingTest, RowsScaledPerRow) {
  Buffer<int8_t> w(ScalarType::Char, {3, 2}, {1, -2, 127, -127, 0, 5});
  Buffer<float> s(ScalarType::Float, {3}, {0.5f, 0.25f, 2.f});
  Buffer<int64_t> ids(ScalarType::Long, {1, 3}, {2, 0, 1});
  Buffer<float> out(ScalarType::Float, {1, 3, 2}, std::vector<float>(6, -1.f));
  runtime::KernelRuntimeContext ctx;
  embedding_byte_out(ctx, w.tensor, s.tensor, nullptr, -127, 127, ids.tensor, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(out.data, (std::vector<float>{0.f, 10.f, 0.5f, -1.f, 31.75f, -31.75f}));
}

TEST(QuantizedEmbeddingTest, GroupsAndZeroPoints) {
  // One row of 4 in two groups of 2: scales 1 and 10, zero points 1 and -1.
  Buffer<int8_t> w(ScalarType::Char, {1, 4}, {3, 1, 0, 2});
  Buffer<float> s(ScalarType::Float, {1, 2}, {1.f, 10.f});
  Buffer<float> zp(ScalarType::Float, {1, 2}, {1.f, -1.f});
  Buffer<int32_t> ids(ScalarType::Int, {2}, {0, 0});
  Buffer<float> out(ScalarType::Float, {2, 4}, std::vector<float>(8, 0.f));
  runtime::KernelRuntimeContext ctx;
  embedding_byte_out(ctx, w.tensor, s.tensor, &zp.tensor, -128, 127, ids.tensor, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(out.data, (std::vector<float>{2.f, 0.f, 10.f, 30.f, 2.f, 0.f, 10.f, 30.f}));
}

TEST(QuantizedEmbeddingTest, BadIndexAndOutOfRangeWeightFail) {
  Buffer<int8_t> w(ScalarType::Char, {2, 2}, {1, -128, 3, 4});
  Buffer<float> s(ScalarType::Float, {2}, {1.f, 1.f});
  Buffer<float> out(ScalarType::Float, {1, 2}, {0.f, 0.f});
  Buffer<int64_t> far(ScalarType::Long, {1}, {2});
  runtime::KernelRuntimeContext ctx;
  embedding_byte_out(ctx, w.tensor, s.tensor, nullptr, -127, 127, far.tensor, out.tensor);
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  Buffer<int64_t> first(ScalarType::Long, {1}, {0});  // -128 is outside [-127, 127]
  runtime::KernelRuntimeContext ctx2;
  embedding_byte_out(ctx2, w.tensor, s.tensor, nullptr, -127, 127, first.tensor, out.tensor);
  EXPECT_EQ(ctx2.failure_state(), Error::InvalidArgument);
  Buffer<int64_t> second(ScalarType::Long, {1}, {1});
  runtime::KernelRuntimeContext ctx3;
  embedding_byte_out(ctx3, w.tensor, s.tensor, nullptr, -127, 127, second.tensor, out.tensor);
  EXPECT_EQ(ctx3.failure_state(), Error::Ok);
  EXPECT_EQ(out.data, (std::vector<float>{3.f, 4.f}));
}

}  // namespace
}  // namespace ember::kernels::portable
