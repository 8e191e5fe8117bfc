#include "runtime/core/tensor.h"

#include <gtest/gtest.h>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {
namespace {

TEST(Tensor, ContiguousStridesAndNumel) {
  SizesType sizes[] = {2, 3, 4};
  DimOrderType order[] = {0, 1, 2};
  StridesType strides[3];
  float data[24];
  Tensor t(ScalarType::Float, 3, sizes, order, strides, data);
  EXPECT_EQ(t.numel(), 24u);
  EXPECT_EQ(t.nbytes(), 96u);
  EXPECT_EQ(t.strides()[0], 12);
  EXPECT_EQ(t.strides()[1], 4);
  EXPECT_EQ(t.strides()[2], 1);
  EXPECT_TRUE(t.is_contiguous_dim_order());
}

TEST(Tensor, ChannelsLastStrides) {
  // NCHW sizes [1, 3, 4, 5] stored as NHWC: strides C=1, W=3, H=15, N=60.
  SizesType sizes[] = {1, 3, 4, 5};
  DimOrderType order[] = {0, 2, 3, 1};
  StridesType strides[4];
  Tensor t(ScalarType::Float, 4, sizes, order, strides, nullptr);
  EXPECT_TRUE(t.is_channels_last_dim_order());
  EXPECT_EQ(t.strides()[1], 1);
  EXPECT_EQ(t.strides()[3], 3);
  EXPECT_EQ(t.strides()[2], 15);
  EXPECT_EQ(t.strides()[0], 60);
}

TEST(Tensor, ScalarTensor) {
  int64_t value = 7;
  Tensor t(ScalarType::Long, 0, nullptr, nullptr, nullptr, &value);
  EXPECT_EQ(t.numel(), 1u);
  EXPECT_EQ(t.nbytes(), 8u);
  EXPECT_EQ(*t.const_data_ptr<int64_t>(), 7);
}

TEST(Tensor, ResizeRules) {
  SizesType sizes[] = {4, 8};
  DimOrderType order[] = {0, 1};
  StridesType strides[2];
  Tensor dynamic(ScalarType::Float, 2, sizes, order, strides, nullptr,
                 ShapeDynamism::DynamicBound);
  const SizesType smaller[] = {2, 8};
  EXPECT_EQ(dynamic.resize(smaller), Error::Ok);
  EXPECT_EQ(dynamic.numel(), 16u);
  EXPECT_EQ(dynamic.strides()[0], 8);
  const SizesType other_shape_same_count[] = {1, 32};  // fits the capacity of 32
  EXPECT_EQ(dynamic.resize(other_shape_same_count), Error::Ok);
  const SizesType too_big[] = {5, 8};
  EXPECT_EQ(dynamic.resize(too_big), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "cannot resize float32[1,32] to float32[5,8]: 40 elements exceed the capacity of 32");
  const SizesType wrong_rank[] = {32};
  EXPECT_EQ(dynamic.resize(wrong_rank), Error::InvalidArgument);
  const SizesType negative[] = {-1, 8};
  EXPECT_EQ(dynamic.resize(negative), Error::InvalidArgument);
  // numel 0 fits any capacity, but 65536 * 65536 strides do not fit int32.
  const SizesType zero_beside_huge[] = {0, 65536};
  SizesType wide_sizes[] = {4, 65536};
  Tensor wide(ScalarType::Float, 2, wide_sizes, order, strides, nullptr,
              ShapeDynamism::DynamicBound);
  EXPECT_EQ(wide.resize(zero_beside_huge), Error::Ok);
  SizesType three_sizes[] = {1, 1, 1};
  DimOrderType three_order[] = {0, 1, 2};
  StridesType three_strides[3];
  Tensor empty3(ScalarType::Float, 3, three_sizes, three_order, three_strides, nullptr,
                ShapeDynamism::DynamicBound);
  const SizesType huge_with_zero[] = {65536, 65536, 0};
  EXPECT_EQ(empty3.resize(huge_with_zero), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(),
               "cannot resize float32[1,1,1] to float32[65536,65536,0]: strides overflow int32");


  SizesType static_sizes[] = {4, 8};
  Tensor fixed(ScalarType::Float, 2, static_sizes, order, strides, nullptr);
  const SizesType same[] = {4, 8};
  EXPECT_EQ(fixed.resize(same), Error::Ok);
  EXPECT_EQ(fixed.resize(smaller), Error::NotSupported);
}

TEST(Tensor, Describe) {
  SizesType sizes[] = {1, 3, 224, 224};
  DimOrderType order[] = {0, 1, 2, 3};
  StridesType strides[4];
  Tensor t(ScalarType::Float, 4, sizes, order, strides, nullptr);
  char buffer[64];
  EXPECT_STREQ(describe(t, buffer, sizeof(buffer)), "float32[1,3,224,224]");
  EXPECT_STREQ(describe_shape(ScalarType::Long, {}, buffer, sizeof(buffer)), "int64[]");
}

}  // namespace
}  // namespace ember::runtime
