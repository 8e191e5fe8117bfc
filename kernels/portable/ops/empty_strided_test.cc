// empty_strided.out (no PyTorch case: its contents are unspecified): out takes the sizes, a
// stride list of another rank or a negative size is refused with InvalidArgument.
#include <gtest/gtest.h>

#include <vector>

#include "kernels/portable/ops/copy.h"

namespace ember::kernels::portable {
namespace {

TEST(EmptyStridedTest, ResizesOutAndChecksTheStrideRank) {
  std::vector<float> data(64);
  std::vector<runtime::SizesType> sizes = {8, 8};
  std::vector<runtime::DimOrderType> order = {0, 1};
  std::vector<runtime::StridesType> strides(2);
  Tensor out(runtime::ScalarType::Float, 2, sizes.data(), order.data(), strides.data(),
             data.data(), runtime::ShapeDynamism::DynamicBound);
  const int64_t size[2] = {3, 5}, stride[2] = {1, 3}, short_stride[1] = {1};
  runtime::KernelRuntimeContext ctx;
  empty_strided_out(ctx, {size, 2}, {stride, 2}, out);
  EXPECT_EQ(ctx.failure_state(), runtime::Error::Ok);
  EXPECT_EQ(out.size(0), 3);
  EXPECT_EQ(out.size(1), 5);
  runtime::KernelRuntimeContext ctx2;
  empty_strided_out(ctx2, {size, 2}, {short_stride, 1}, out);
  EXPECT_EQ(ctx2.failure_state(), runtime::Error::InvalidArgument);
  const int64_t negative[2] = {3, -1};
  runtime::KernelRuntimeContext ctx3;
  empty_strided_out(ctx3, {negative, 2}, {stride, 2}, out);
  EXPECT_EQ(ctx3.failure_state(), runtime::Error::InvalidArgument);
  const int64_t too_big[2] = {9, 9};
  runtime::KernelRuntimeContext ctx4;
  empty_strided_out(ctx4, {too_big, 2}, {stride, 2}, out);
  EXPECT_NE(ctx4.failure_state(), runtime::Error::Ok);
}

}  // namespace
}  // namespace ember::kernels::portable
