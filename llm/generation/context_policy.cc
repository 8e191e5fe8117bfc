#include "llm/generation/context_policy.h"

#include <algorithm>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

runtime::Result<ContextPlan> plan_context(const ContextPolicy& policy,
                                          const std::vector<int32_t>& prompt) {
  EMBER_CHECK_OR_RETURN(
      policy.context_length > 0 && policy.max_new_tokens > 0 && policy.keep_prefix >= 0,
      InvalidArgument,
      "context policy: context_length %d and max_new_tokens %d must be > 0, "
      "keep_prefix %d >= 0",
      policy.context_length, policy.max_new_tokens, policy.keep_prefix);
  EMBER_CHECK_OR_RETURN(!prompt.empty(), InvalidArgument, "context policy: the prompt is empty");
  const int64_t length = static_cast<int64_t>(prompt.size());
  ContextPlan plan;
  if (policy.overflow == ContextOverflow::Fail ||
      length + policy.max_new_tokens <= policy.context_length) {
    EMBER_CHECK_OR_RETURN(length < policy.context_length, OutOfResources,
                          "context overflow: the prompt has %lld tokens, the context holds %d "
                          "(at least one new token must fit)",
                          static_cast<long long>(length), policy.context_length);
    plan.prompt = prompt;
    plan.new_tokens = static_cast<int32_t>(
        std::min<int64_t>(policy.max_new_tokens, policy.context_length - length));
    return plan;
  }
  // DropOldest: room for max_new_tokens (or all but keep_prefix + 1 prompt tokens).
  const int64_t room =
      policy.context_length - std::min(policy.max_new_tokens, policy.context_length - 1);
  EMBER_CHECK_OR_RETURN(policy.keep_prefix < room && policy.keep_prefix < length, OutOfResources,
                        "context overflow: keep_prefix %d leaves no room in a context of %d for "
                        "%d new tokens",
                        policy.keep_prefix, policy.context_length, policy.max_new_tokens);
  const int64_t drop = length - room;
  plan.prompt.assign(prompt.begin(), prompt.begin() + policy.keep_prefix);
  plan.prompt.insert(plan.prompt.end(), prompt.begin() + policy.keep_prefix + drop, prompt.end());
  plan.dropped = static_cast<int32_t>(drop);
  plan.new_tokens = static_cast<int32_t>(policy.context_length - plan.prompt.size());
  return plan;
}

}  // namespace ember::llm
