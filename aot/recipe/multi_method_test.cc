// The pieces of multi-method programs on their own: constant methods and their errors,
// merge_programs refusing two methods of one name, and --method NAME=FILE.pt2 flags.
// Whole programs lowered and run: tests/delegation/multi_method_test.
#include "aot/recipe/multi_method.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "aot/emit/program_merge.h"
#include "runtime/core/diagnostics.h"

namespace ember::aot {
namespace {

TEST(TutorialMultiMethod, DuplicateNamesAndBadFlagsAreErrors) {
  auto a = constant_method("m", {EmitValue::of_int(1)});
  auto b = constant_method("m", {EmitValue::of_int(2)});
  auto merged = merge_programs({*a, *b});
  ASSERT_FALSE(merged.ok());
  EXPECT_NE(std::string(::ember::runtime::last_error_message()).find("two methods are called 'm'"),
            std::string::npos);
  EXPECT_FALSE(constant_method("empty", {}).ok());
  EXPECT_FALSE(constant_method("dangling", {EmitValue::of_tensor({})}).ok());
  std::vector<std::vector<uint8_t>> data;
  EXPECT_FALSE(constant_tensor({ScalarType::Float, {2}, {1, 2, 3}}, &data).ok());
  EXPECT_TRUE(data.empty());
  EXPECT_FALSE(parse_method_flag("encode").ok());
  EXPECT_FALSE(parse_method_flag("=x.pt2").ok());
  auto ok = parse_method_flag("encode=enc.pt2");
  ASSERT_TRUE(ok.ok());
  EXPECT_EQ(ok->name, "encode");
  EXPECT_EQ(ok->pt2_path, "enc.pt2");
}

}  // namespace
}  // namespace ember::aot
