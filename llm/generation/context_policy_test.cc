#include "llm/generation/context_policy.h"

#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

using runtime::Error;

std::vector<int32_t> iota(int n) {
  std::vector<int32_t> v(n);
  std::iota(v.begin(), v.end(), 1);
  return v;
}

TEST(ContextPolicyTest, NewTokensAreCappedByTheRoomLeft) {
  ContextPolicy p{10, 4, ContextOverflow::Fail, 0};
  auto plan = plan_context(p, iota(8));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->new_tokens, 2);
  EXPECT_EQ(plan->prompt.size(), 8u);
  EXPECT_EQ(plan_context(p, iota(3))->new_tokens, 4);
}

TEST(ContextPolicyTest, PromptThatFillsTheContextIsContextOverflow) {
  ContextPolicy p{10, 4, ContextOverflow::Fail, 0};
  auto plan = plan_context(p, iota(10));
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.error(), Error::OutOfResources);
  EXPECT_EQ(std::strncmp(runtime::last_error_message(), "context overflow:", 17), 0)
      << runtime::last_error_message();
}

TEST(ContextPolicyTest, DropOldestKeepsThePrefixAndTheNewestTokens) {
  // Context 10, 4 new tokens: 6 prompt tokens fit; keep 1 2, then the newest 4: 9 10 11 12.
  ContextPolicy p{10, 4, ContextOverflow::DropOldest, 2};
  auto plan = plan_context(p, iota(12));
  ASSERT_TRUE(plan.ok());
  EXPECT_EQ(plan->prompt, (std::vector<int32_t>{1, 2, 9, 10, 11, 12}));
  EXPECT_EQ(plan->dropped, 6);
  EXPECT_EQ(plan->new_tokens, 4);
}

TEST(ContextPolicyTest, BadPoliciesAreInvalidArgument) {
  EXPECT_EQ(plan_context({0, 4, ContextOverflow::Fail, 0}, iota(1)).error(),
            Error::InvalidArgument);
  EXPECT_EQ(plan_context({8, 0, ContextOverflow::Fail, 0}, iota(1)).error(),
            Error::InvalidArgument);
  EXPECT_EQ(plan_context({8, 2, ContextOverflow::Fail, 0}, {}).error(), Error::InvalidArgument);
  EXPECT_EQ(plan_context({8, 4, ContextOverflow::DropOldest, 6}, iota(20)).error(),
            Error::OutOfResources);
}

}  // namespace
}  // namespace ember::llm
