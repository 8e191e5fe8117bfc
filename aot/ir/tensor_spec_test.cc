// Tests for ScalarType codes and TensorSpec helpers. Expected codes come from
// pte-format.md §1.6 and pt2-format.md §2.7.
#include "aot/ir/tensor_spec.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

TEST(ScalarTypeTest, Pt2CodesMapToExecuTorchCodes) {
  struct Case {
    int pt2;
    int et;
    size_t size;
  };
  for (Case c : {Case{1, 0, 1}, Case{2, 1, 1}, Case{4, 3, 4}, Case{5, 4, 8}, Case{6, 5, 2},
                 Case{7, 6, 4}, Case{8, 7, 8}, Case{12, 11, 1}, Case{13, 15, 2}, Case{28, 27, 2},
                 Case{29, 24, 1}, Case{30, 23, 1}, Case{34, 28, 4}, Case{35, 29, 8}}) {
    auto t = pt2_scalar_type(c.pt2);
    ASSERT_TRUE(t.ok()) << c.pt2;
    EXPECT_EQ(static_cast<int>(t.get()), c.et) << c.pt2;
    EXPECT_EQ(element_size(t.get()), c.size) << c.pt2;
  }
}

TEST(ScalarTypeTest, UnknownCodesAreInvalidType) {
  for (int code : {0, 14, 27, 36, -1, 1000}) {
    auto t = pt2_scalar_type(code);
    ASSERT_FALSE(t.ok()) << code;
    EXPECT_EQ(t.error(), Error::InvalidType);
  }
}

SymInt sym(const char* text) {
  SymInt s;
  s.is_static = false;
  s.expr = text;
  s.text = text;
  return s;
}

TEST(TensorSpecTest, NumelBytesAndPrinting) {
  TensorSpec t;
  t.dtype = ScalarType::Float;
  t.sizes = {SymInt::of(8), SymInt::of(3), SymInt::of(3), SymInt::of(3)};
  EXPECT_EQ(t.static_numel(), 216);
  EXPECT_EQ(t.static_nbytes(), 864);
  EXPECT_EQ(t.to_string(), "f32[8, 3, 3, 3]");
  t.sizes[0] = sym("s0");
  EXPECT_FALSE(t.is_static());
  EXPECT_EQ(t.static_numel(), -1);
  EXPECT_EQ(t.to_string(), "f32[s0, 3, 3, 3]");
}

TEST(TensorSpecTest, OverflowingNumelIsUnknown) {
  TensorSpec t;
  t.dtype = ScalarType::Double;
  t.sizes = {SymInt::of(int64_t{1} << 40), SymInt::of(int64_t{1} << 40)};
  EXPECT_EQ(t.static_numel(), -1);
  EXPECT_EQ(t.static_nbytes(), -1);
}

TEST(TensorSpecTest, DimOrderFromStrides) {
  std::vector<SymInt> sizes = {SymInt::of(1), SymInt::of(8), SymInt::of(4), SymInt::of(5)};
  // Contiguous NCHW strides: 160, 20, 5, 1.
  std::vector<SymInt> nchw = {SymInt::of(160), SymInt::of(20), SymInt::of(5), SymInt::of(1)};
  EXPECT_EQ(dim_order_from_strides(sizes, nchw), (std::vector<uint8_t>{0, 1, 2, 3}));
  // Channels-last strides for [1, 8, 4, 5]: N=160, C=1, H=40, W=8.
  std::vector<SymInt> nhwc = {SymInt::of(160), SymInt::of(1), SymInt::of(40), SymInt::of(8)};
  EXPECT_EQ(dim_order_from_strides(sizes, nhwc), (std::vector<uint8_t>{0, 2, 3, 1}));
  TensorSpec t;
  t.dtype = ScalarType::Float;
  t.sizes = sizes;
  t.dim_order = {0, 2, 3, 1};
  EXPECT_EQ(t.to_string(), "f32[1, 8, 4, 5]{0,2,3,1}");
}

}  // namespace
}  // namespace ember::aot
