// Issue #8, "Must hold" 3 (lower bounds and equalities): torch.export's constraints that
// the .pte sizes cannot express — a dim below its Dim(min=...) and two inputs whose dims
// export declared equal — are rejected with an error naming the input, the dim, the
// allowed range / the other input's dim, and the value given. Ember carries them in the
// constant method __ember_guards__forward (runtime/executor/input_guards.h). Expected
// behaviour comes from PyTorch: the fixtures' range_constraints (transformer seq in
// [2, 64], MLP batch in [1, 64], two_dynamic_dims b shared by x and y) and, for valid
// shapes at the edges, PyTorch's reference outputs (dynamic_fixtures_test runs them all).
#include <gtest/gtest.h>

#include "aot/recipe/run_method.h"
#include "runtime/module/module.h"
#include "tests/dynamic/dynamic_util.h"

namespace ember::testing {
namespace {

std::string error_of(aot::PteRunner* r, const std::vector<aot::HostTensor>& in) {
  auto out = r->run("forward", in);
  return out.ok() ? "" : ::ember::aot::format_error(out.error());
}

// The runtime's message, wherever the status puts its own prefix.
void expect_message(const std::string& err, const std::string& message) {
  ASSERT_FALSE(err.empty()) << "accepted; expected: " << message;
  EXPECT_NE(err.find(message), std::string::npos) << err;
  EXPECT_NE(err.find("InvalidArgument"), std::string::npos) << err;
}

class ConstraintGuardsTest : public ::testing::TestWithParam<const char*> {};

TEST_P(ConstraintGuardsTest, TransformerSeqBelowMin) {
  auto r = load_lowered("transformer_dynamic_seq.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  ASSERT_EQ(error_of(r.get(), {float_tensor({2, 2, 32})}), "");  // the min itself is fine
  expect_message(error_of(r.get(), {float_tensor({2, 1, 32})}),
                 "input 0 of method 'forward': dim 1 is 1, allowed range [2, 64] (min from export "
                 "range constraint)");
  expect_message(error_of(r.get(), {float_tensor({2, 0, 32})}),
                 "input 0 of method 'forward': dim 1 is 0, allowed range [2, 64] (min from export "
                 "range constraint)");
  // Above the max names the same range, with the bound as the reason.
  expect_message(error_of(r.get(), {float_tensor({2, 65, 32})}),
                 "input 0 of method 'forward': dim 1 is 65, allowed range [2, 64] (DYNAMIC_BOUND upper "
                 "bound)");
  EXPECT_EQ(error_of(r.get(), {float_tensor({2, 64, 32})}), "");  // still usable
}

TEST_P(ConstraintGuardsTest, MlpBatchZeroBelowMinOne) {
  auto r = load_lowered("mlp_dynamic_batch.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  // Dim("batch", min=1): PyTorch's exported program rejects an empty batch too.
  expect_message(error_of(r.get(), {float_tensor({0, 16})}),
                 "input 0 of method 'forward': dim 0 is 0, allowed range [1, 64] (min from export range "
                 "constraint)");
  EXPECT_EQ(error_of(r.get(), {float_tensor({1, 16})}), "");
}

TEST_P(ConstraintGuardsTest, BrokenEqualityBetweenInputs) {
  auto r = load_lowered("two_dynamic_dims.core_aten.torch2_6", GetParam());
  if (r == nullptr) GTEST_SKIP() << "fixture not found";
  // x [b, n, 4], y [b, m, 4]: b differs (2 vs 3).
  expect_message(error_of(r.get(), {float_tensor({2, 3, 4}), float_tensor({3, 5, 4})}),
                 "input 1 of method 'forward': dim 0 is 3 but must equal input 0 dim 0 (2) (equality "
                 "constraint from export)");
  // Checked before any instruction: no kernel message, and the method is still usable.
  EXPECT_EQ(error_of(r.get(), {float_tensor({3, 1, 4}), float_tensor({3, 5, 4})}), "");
  expect_message(error_of(r.get(), {float_tensor({16, 3, 4}), float_tensor({1, 5, 4})}),
                 "input 1 of method 'forward': dim 0 is 1 but must equal input 0 dim 0 (16) (equality "
                 "constraint from export)");
}

TEST_P(ConstraintGuardsTest, GuardMethodIsHiddenAndForwardStaysFirst) {
  Fixture f;
  if (!find_fixture("two_dynamic_dims.core_aten.torch2_6", &f)) GTEST_SKIP() << "fixture not found";
  auto pte = lower_pt2(f.pt2, GetParam());
  ASSERT_TRUE(pte.ok()) << ::ember::aot::format_error(pte.error());
  runtime::Module module(pte->data(), pte->size());
  ASSERT_EQ(module.load(), runtime::Error::Ok);
  ASSERT_EQ(module.program().num_methods(), 2u);
  EXPECT_STREQ(*module.program().get_method_name(0), "forward");
  EXPECT_STREQ(*module.program().get_method_name(1), "__ember_guards__forward");
  auto names = module.method_names();
  ASSERT_TRUE(names.ok());
  EXPECT_EQ(*names, std::vector<std::string>{"forward"});
}

INSTANTIATE_TEST_SUITE_P(Recipes, ConstraintGuardsTest, ::testing::Values("portable", "xnnpack"));

}  // namespace
}  // namespace ember::testing
