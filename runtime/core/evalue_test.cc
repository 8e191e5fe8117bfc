#include "runtime/core/evalue.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

TEST(EValue, ScalarsAndTags) {
  EXPECT_EQ(EValue(int64_t{3}).to_int(), 3);
  EXPECT_EQ(EValue(2.5).to_double(), 2.5);
  EXPECT_TRUE(EValue(true).to_bool());
  EXPECT_TRUE(EValue().is_none());
  EXPECT_EQ(EValue(std::string_view("abc")).to_string(), "abc");
  EXPECT_EQ(EValue(int64_t{3}).to_scalar().to<float>(), 3.0f);
  EXPECT_EQ(EValue(1.5).to_scalar().to_int(), 1);
  EXPECT_STREQ(tag_name(Tag::ListOptionalTensor), "ListOptionalTensor");
  EXPECT_EQ(uint32_t(Tag::ListInt), 8u);
}

TEST(EValue, BoxedIntListSeesUpdates) {
  EValue a(int64_t{2}), b(int64_t{5});
  EValue* items[] = {&a, &b};
  int64_t scratch[2];
  EValue list(BoxedIntList(items, scratch, 2));
  ASSERT_TRUE(list.is_int_list());
  EXPECT_EQ(list.to_int_list()[1], 5);
  b = EValue(int64_t{9});  // e.g. a symbolic size recomputed at run time
  EXPECT_EQ(list.to_int_list()[1], 9);
}

TEST(EValue, TensorLists) {
  SizesType sizes[] = {1};
  DimOrderType order[] = {0};
  StridesType strides[1];
  float x = 1.0f;
  Tensor t(ScalarType::Float, 1, sizes, order, strides, &x);
  EValue tv(&t), none;
  EValue* items[] = {&tv, &none};
  OptionalTensorList optional(items, 2);
  EXPECT_EQ(optional.get(0), &t);
  EXPECT_EQ(optional.get(1), nullptr);
  TensorList list(items, 1);
  EXPECT_EQ(&list[0], &t);
}

TEST(EValueDeathTest, WrongAccessorAborts) {
  EValue v(int64_t{1});
  EXPECT_DEATH((void)v.to_double(), "EValue holds Int, accessed as Double");
}

}  // namespace
}  // namespace ember::runtime
