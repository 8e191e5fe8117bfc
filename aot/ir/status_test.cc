// Tests for Status / StatusOr and the propagation macros.
#include "aot/ir/status.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

StatusOr<int> parse_positive(int v) {
  if (v <= 0) return invalid_argument("value " + std::to_string(v) + " is not positive");
  return v;
}

Status doubled(int v, int* out) {
  EMBER_AOT_ASSIGN_OR_RETURN(int x, parse_positive(v));
  *out = 2 * x;
  return Status::ok();
}

Status wrapped(int v) {
  int out = 0;
  EMBER_AOT_RETURN_IF_ERROR_CTX(doubled(v, &out), "input 3");
  return Status::ok();
}

TEST(StatusTest, OkByDefault) {
  Status s;
  EXPECT_TRUE(s.is_ok());
  EXPECT_EQ(s.to_string(), "Ok");
}

TEST(StatusTest, ToStringHasNameAndHexCode) {
  Status s = invalid_program("node 3: bad");
  EXPECT_EQ(s.to_string(), "InvalidProgram (0x23): node 3: bad");
  EXPECT_STREQ(to_string(StatusCode::kInvalidExternalData), "InvalidExternalData");
}

TEST(StatusTest, MacrosPropagateAndAnnotate) {
  int out = 0;
  EXPECT_TRUE(doubled(4, &out).is_ok());
  EXPECT_EQ(out, 8);
  Status s = wrapped(-1);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "input 3: value -1 is not positive");
}

TEST(StatusTest, StatusOrFromOkIsInternal) {
  StatusOr<int> v(Status::ok());
  EXPECT_FALSE(v.is_ok());
  EXPECT_EQ(v.status().code(), StatusCode::kInternal);
}

}  // namespace
}  // namespace ember::aot
