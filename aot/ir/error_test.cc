// The AoT's std::string helpers over the shared Error / Result<T> and the propagation
// macros (expected strings written by hand).
#include "aot/ir/error.h"

#include <gtest/gtest.h>

namespace ember::aot {
namespace {

Result<int> parse_positive(int v) {
  if (v <= 0) return invalid_argument("value " + std::to_string(v) + " is not positive");
  return v;
}

Error doubled(int v, int* out) {
  EMBER_ASSIGN_OR_RETURN(int x, parse_positive(v));
  *out = 2 * x;
  return Error::Ok;
}

Error wrapped(int v) {
  int out = 0;
  EMBER_TRY_CONTEXT(doubled(v, &out), std::string("input ") + "3");
  return Error::Ok;
}

TEST(AotErrorTest, FormatHasNameHexCodeAndMessage) {
  EXPECT_EQ(format_error(Error::Ok), "Ok");
  Error e = invalid_program("node 3: bad");
  EXPECT_EQ(format_error(e), "InvalidProgram (0x23): node 3: bad");
  EXPECT_STREQ(error_name(Error::InvalidExternalData), "InvalidExternalData");
}

TEST(AotErrorTest, MacrosPropagateAndAnnotate) {
  int out = 0;
  EXPECT_EQ(doubled(4, &out), Error::Ok);
  EXPECT_EQ(out, 8);
  EXPECT_EQ(wrapped(-1), Error::InvalidArgument);
  EXPECT_EQ(std::string(last_error_message()), "input 3: value -1 is not positive");
}

TEST(AotErrorTest, AnnotateDoesNotRepeatAContextAlreadyInFront) {
  invalid_data("model.pt2: entry 'w' is damaged");
  EXPECT_EQ(annotate(Error::InvalidExternalData, std::string("model.pt2")), Error::InvalidExternalData);
  EXPECT_EQ(std::string(last_error_message()), "model.pt2: entry 'w' is damaged");
  // Only an exact "<context>: " prefix counts: a longer name is still added.
  invalid_data("model.pt2x: bad");
  annotate(Error::InvalidExternalData, std::string("model.pt2"));
  EXPECT_EQ(std::string(last_error_message()), "model.pt2: model.pt2x: bad");
}

TEST(AotErrorTest, PercentSignsInMessagesAreText) {
  EXPECT_EQ(fail(Error::InvalidArgument, std::string("50% of %s")), Error::InvalidArgument);
  EXPECT_EQ(std::string(last_error_message()), "50% of %s");
}

TEST(AotErrorTest, ResultFromOkIsInternal) {
  Result<int> v(Error::Ok);
  EXPECT_FALSE(v.ok());
  EXPECT_EQ(v.error(), Error::Internal);
}

}  // namespace
}  // namespace ember::aot
