// parse_lower_options: each usage rule on a hand-written command line gives the exit status
// and error the rule states (lower_options.h), and a good command line fills LowerOptions
// with paths resolved against $BUILD_WORKING_DIRECTORY. gflags keeps values between parses,
// so every test restores them (FlagSaver).
#include "apps/lower/lower_options.h"

#include <gflags/gflags.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "apps/lower/all_recipes.h"

namespace ember::aot {
namespace {

class LowerOptionsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_EQ(register_all_recipes(&recipes_), Error::Ok);
    model_ = std::string(std::getenv("TEST_TMPDIR")) + "/model.pt2";
    std::ofstream(model_) << "not read while parsing";
    setenv("BUILD_WORKING_DIRECTORY", "/work/dir", 1);
  }
  void TearDown() override { unsetenv("BUILD_WORKING_DIRECTORY"); }

  LowerUsage parse(std::vector<std::string> args, LowerOptions* options) {
    args.insert(args.begin(), "lower");
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    return parse_lower_options(static_cast<int>(args.size()), argv.data(), recipes_, options);
  }

  gflags::FlagSaver saver_;
  RecipeRegistry recipes_;
  std::string model_;
};

TEST_F(LowerOptionsTest, GoodCommandLineResolvesRelativePaths) {
  LowerOptions o;
  const LowerUsage u =
      parse({model_, "-o", "out/m.pte", "--recipe", "xnnpack", "--dump-dir", "d", "--compile_spec",
             "xnnpack.constants=inline", "--pass", "replace_relu_with_sigmoid"},
            &o);
  ASSERT_TRUE(u.ok()) << format_error(u.error);
  EXPECT_EQ(o.input, model_);  // absolute: unchanged
  EXPECT_EQ(o.out, "/work/dir/out/m.pte");
  EXPECT_EQ(o.dump_dir, "/work/dir/d");  // the dashed spelling is an alias
  EXPECT_EQ(o.recipe, "xnnpack");
  EXPECT_FALSE(o.int8);
  EXPECT_FALSE(o.bundling);
  ASSERT_EQ(o.recipe_options.compile_specs.size(), 1u);
  EXPECT_EQ(o.recipe_options.compile_specs[0].key, "xnnpack.constants");
  EXPECT_EQ(o.recipe_options.compile_specs[0].value,
            (std::vector<uint8_t>{'i', 'n', 'l', 'i', 'n', 'e'}));
  EXPECT_EQ(o.recipe_options.user_passes.size(), 1u);
  EXPECT_FALSE(o.recipe_options.last_logits);  // every position's logits unless asked
}

TEST_F(LowerOptionsTest, LlmLastLogitsReachesTheRecipeOptions) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", "m.pte", "--recipe", "xnnpack-8da4w", "--llm_last_logits"}, &o);
  ASSERT_TRUE(u.ok()) << format_error(u.error);
  EXPECT_TRUE(o.recipe_options.last_logits);
}

TEST_F(LowerOptionsTest, MissingOutputPrintsUsage) {
  LowerOptions o;
  const LowerUsage u = parse({model_}, &o);
  EXPECT_EQ(u.status, 2);
  EXPECT_TRUE(u.print_usage);
}

TEST_F(LowerOptionsTest, OutputNamingTheInputIsBadUsage) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", model_}, &o);
  EXPECT_EQ(u.status, 2);
  EXPECT_EQ(u.error, Error::InvalidArgument);
  EXPECT_NE(std::string(last_error_message()).find("is the input MODEL.pt2"), std::string::npos);
}

TEST_F(LowerOptionsTest, MalformedCompileSpecIsBadUsage) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", "x.pte", "--compile_spec", "=v"}, &o);
  EXPECT_EQ(u.status, 2);
  EXPECT_NE(std::string(last_error_message()).find("--compile_spec expects KEY=VALUE, got '=v'"),
            std::string::npos);
}

TEST_F(LowerOptionsTest, CalibrationWithAFloatRecipeIsBadUsage) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", "x.pte", "--calibrate", "a.bin"}, &o);
  EXPECT_EQ(u.status, 2);
  EXPECT_NE(std::string(last_error_message()).find("need a quantizing recipe"), std::string::npos);
}

TEST_F(LowerOptionsTest, UnknownPassFailsWithStatusOne) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", "x.pte", "--pass", "no_such_pass"}, &o);
  EXPECT_EQ(u.status, 1);
  EXPECT_NE(u.error, Error::Ok);
}

TEST_F(LowerOptionsTest, BundleOutWithoutCasesIsBadUsage) {
  LowerOptions o;
  const LowerUsage u = parse({model_, "-o", "x.pte", "--bundle_out", "x.bpte"}, &o);
  EXPECT_EQ(u.status, 2);
  EXPECT_NE(std::string(last_error_message()).find("--bundle_out needs"), std::string::npos);
}

TEST_F(LowerOptionsTest, BundlingPutsTheBpteBesideTheOutput) {
  LowerOptions o;
  const LowerUsage u =
      parse({model_, "-o", "m.pte", "--bundle_inputs", "a.bin", "--bundle_outputs", "y.bin"}, &o);
  ASSERT_TRUE(u.ok()) << format_error(u.error);
  EXPECT_TRUE(o.bundling);
  EXPECT_EQ(o.bpte_path, "/work/dir/m.bpte");
  EXPECT_EQ(o.bundle_inputs, (std::vector<std::string>{"a.bin"}));
}

}  // namespace
}  // namespace ember::aot
