// Issue #8, "Must hold" 3: inputs that break the exported constraints get a precise,
// named error from Method::set_input (through PteRunner, which reports the runtime's
// message): above a dim's max, a wrong rank, and the case upstream #20546 missed — a
// shape whose element count fits the buffer but one dim exceeds its bound. Below-min and
// broken-equality inputs are covered in constraint_guards_test.cc.
#include <gtest/gtest.h>

#include "aot/recipe/run_method.h"
#include "tests/dynamic/dynamic_util.h"

namespace ember::testing {
namespace {

void expect_error(aot::PteRunner* r, const std::vector<aot::HostTensor>& in,
                  const std::vector<std::string>& parts) {
  auto out = r->run("forward", in);
  ASSERT_FALSE(out.ok()) << "accepted an input outside the constraints";
  const std::string msg = ::ember::aot::format_error(out.error());
  for (const std::string& p : parts) EXPECT_NE(msg.find(p), std::string::npos) << "'" << p << "' not in: " << msg;
}

class SetInputBoundsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(SetInputBoundsTest, MlpBatchAboveMaxNamesInputDimRangeAndValue) {
  auto r = load_lowered("mlp_dynamic_batch.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  expect_error(r.get(), {float_tensor({80, 16})},
               {"InvalidArgument", "input 0", "dim 0 is 80", "64]"});
  // Still usable at a valid shape afterwards, and at the bound itself.
  EXPECT_TRUE(r->run("forward", {float_tensor({64, 16})}).ok());
  EXPECT_TRUE(r->run("forward", {float_tensor({3, 16})}).ok());
}

TEST_P(SetInputBoundsTest, MlpStaticDimMustMatch) {
  auto r = load_lowered("mlp_dynamic_batch.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  // 64*16 elements would fit the buffer as [32, 32], but dim 1 is static 16.
  expect_error(r.get(), {float_tensor({32, 32})}, {"input 0", "dim 1 is 32", "16"});
}

TEST_P(SetInputBoundsTest, WrongRankIsNamed) {
  auto r = load_lowered("mlp_dynamic_batch.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  expect_error(r.get(), {float_tensor({4, 16, 1})}, {"input 0", "rank is 3, expected 2"});
}

TEST_P(SetInputBoundsTest, EachDimBoundCheckedNotOnlyElementCount) {
  auto r = load_lowered("two_dynamic_dims.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  // x is [b<=16, n<=32, 4]: [8, 40, 4] has 1280 <= 2048 elements but n = 40 > 32.
  expect_error(r.get(), {float_tensor({8, 40, 4}), float_tensor({8, 2, 4})},
               {"input 0", "dim 1 is 40", "32]"});
  // y likewise, on input 1.
  expect_error(r.get(), {float_tensor({2, 3, 4}), float_tensor({2, 33, 4})},
               {"input 1", "dim 1 is 33", "32]"});
}

TEST_P(SetInputBoundsTest, TransformerSeqAboveMax) {
  auto r = load_lowered("transformer_dynamic_seq.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  expect_error(r.get(), {float_tensor({2, 65, 32})}, {"input 0", "dim 1 is 65", "64]"});
}

INSTANTIATE_TEST_SUITE_P(Recipes, SetInputBoundsTest, ::testing::Values("portable", "xnnpack"));

}  // namespace
}  // namespace ember::testing
