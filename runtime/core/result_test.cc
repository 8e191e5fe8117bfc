#include "runtime/core/result.h"

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

struct MoveOnly {
  explicit MoveOnly(int v) : value(v) {}
  MoveOnly(MoveOnly&& o) noexcept : value(o.value) { o.value = -1; }
  MoveOnly(const MoveOnly&) = delete;
  int value;
};

Result<int> parse(int v) {
  if (v < 0) return Error::InvalidArgument;
  return v * 2;
}

Error use(int v, int* out) {
  EMBER_ASSIGN_OR_RETURN(*out, parse(v));
  return Error::Ok;
}

TEST(Result, ValueAndError) {
  Result<int> good = parse(4);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(*good, 8);
  EXPECT_EQ(good.error(), Error::Ok);
  Result<int> bad = parse(-1);
  EXPECT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), Error::InvalidArgument);
}

TEST(Result, CannotHoldOk) {
  Result<int> r(Error::Ok);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.error(), Error::Internal);
}

TEST(Result, MoveOnlyValue) {
  Result<MoveOnly> r(MoveOnly(3));
  Result<MoveOnly> moved(std::move(r));
  EXPECT_EQ(moved->value, 3);
}

TEST(Result, AssignOrReturn) {
  int out = 0;
  EXPECT_EQ(use(5, &out), Error::Ok);
  EXPECT_EQ(out, 10);
  EXPECT_EQ(use(-5, &out), Error::InvalidArgument);
}

TEST(ResultDeathTest, AccessingErrorAborts) {
  Result<int> bad = parse(-1);
  EXPECT_DEATH((void)*bad, "Result accessed with error InvalidArgument");
}

}  // namespace
}  // namespace ember::runtime
