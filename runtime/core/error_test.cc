#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/core/error.h"

namespace ember::runtime {
namespace {

TEST(Error, ValuesMatchExecuTorch) {
  EXPECT_EQ(uint32_t(Error::InvalidArgument), 0x12u);
  EXPECT_EQ(uint32_t(Error::OperatorMissing), 0x14u);
  EXPECT_EQ(uint32_t(Error::RegistrationAlreadyRegistered), 0x16u);
  EXPECT_EQ(uint32_t(Error::InvalidProgram), 0x23u);
  EXPECT_EQ(uint32_t(Error::OutOfResources), 0x25u);
  EXPECT_EQ(uint32_t(Error::DelegateInvalidHandle), 0x32u);
}

TEST(Error, NamesAndMeanings) {
  EXPECT_STREQ(error_name(Error::InvalidArgument), "InvalidArgument");
  EXPECT_STREQ(error_name(Error::DelegateInvalidCompatibility), "DelegateInvalidCompatibility");
  EXPECT_STREQ(error_name(static_cast<Error>(0x99)), "Unknown");
  EXPECT_GT(std::strlen(error_meaning(Error::InvalidProgram)), 5u);
}

Error inner() { return fail(Error::InvalidArgument, "input %d expects %s", 0, "float32[1,3]"); }
Error outer() {
  const Error e = inner();
  return annotate(e, "method '%s'", "forward");
}

TEST(Diagnostics, FailAnnotateFormat) {
  clear_error_message();
  EXPECT_STREQ(last_error_message(), "");
  EXPECT_EQ(outer(), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "method 'forward': input 0 expects float32[1,3]");
  char buffer[256];
  EXPECT_STREQ(format_error(Error::InvalidArgument, buffer, sizeof(buffer)),
               "InvalidArgument (0x12): method 'forward': input 0 expects float32[1,3]");
}

Error check_positive(int v) {
  EMBER_CHECK_OR_RETURN(v > 0, InvalidArgument, "value %d must be positive", v);
  return Error::Ok;
}
Error try_twice(int a, int b) {
  EMBER_TRY(check_positive(a));
  EMBER_TRY(check_positive(b));
  return Error::Ok;
}

TEST(Diagnostics, Macros) {
  EXPECT_EQ(try_twice(1, 2), Error::Ok);
  EXPECT_EQ(try_twice(1, -3), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "value -3 must be positive");
}

Error with_context(int v) {
  EMBER_TRY_CONTEXT(check_positive(v), "argument %d", 2);
  return Error::Ok;
}

TEST(Diagnostics, TryContextAnnotatesOnlyFailures) {
  clear_error_message();
  EXPECT_EQ(with_context(1), Error::Ok);
  EXPECT_STREQ(last_error_message(), "");
  EXPECT_EQ(with_context(-1), Error::InvalidArgument);
  EXPECT_STREQ(last_error_message(), "argument 2: value -1 must be positive");
}

TEST(Diagnostics, AnnotateKeepsTheBufferBoundedAndTerminated) {
  // A long message, then contexts until the buffer is full: the context always stays
  // whole at the front and the text is cut at the end, never past the capacity.
  const std::string long_text(kMaxErrorMessageLength + 100, 'm');
  fail(Error::Internal, "%s", long_text.c_str());
  EXPECT_EQ(std::strlen(last_error_message()), kMaxErrorMessageLength - 1);
  annotate(Error::Internal, "ctx");
  const std::string got = last_error_message();
  EXPECT_EQ(got.size(), kMaxErrorMessageLength - 1);
  EXPECT_EQ(got.substr(0, 6), "ctx: m");
  // A context longer than the whole buffer fills it (cut), with no separator or message.
  const std::string huge(kMaxErrorMessageLength * 2, 'c');
  annotate(Error::Internal, "%s", huge.c_str());
  EXPECT_EQ(std::string(last_error_message()), std::string(kMaxErrorMessageLength - 1, 'c'));
  // Context exactly one shorter than the capacity: the ':' fits, the space does not.
  fail(Error::Internal, "x");
  const std::string almost(kMaxErrorMessageLength - 2, 'a');
  annotate(Error::Internal, "%s", almost.c_str());
  EXPECT_EQ(std::string(last_error_message()), almost + ":");
}

}  // namespace
}  // namespace ember::runtime
