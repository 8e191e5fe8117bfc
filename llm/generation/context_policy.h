// What happens when a prompt and the tokens to generate do not fit the model's context (its
// KV-cache length). Fail: a prompt with no room for one new token is the named error
// "context overflow" (Error::OutOfResources, message "context overflow: ..."), and generation
// stops at the context's end. DropOldest: the oldest prompt tokens after the first `keep_prefix`
// (a system prompt, BOS) are dropped to leave room for `max_new_tokens`.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

enum class ContextOverflow { Fail, DropOldest };

struct ContextPolicy {
  int32_t context_length = 0;  // tokens the model holds (> 0)
  int32_t max_new_tokens = 0;  // tokens to generate at most (> 0)
  ContextOverflow overflow = ContextOverflow::Fail;
  int32_t keep_prefix = 0;  // DropOldest: prompt tokens never dropped
};

struct ContextPlan {
  std::vector<int32_t> prompt;  // the prompt to prefill (DropOldest may have shortened it)
  int32_t dropped = 0;          // prompt tokens dropped
  int32_t new_tokens = 0;       // tokens that may be generated (>= 1)
};

// Plans one generation. InvalidArgument for a bad policy or an empty prompt; OutOfResources
// ("context overflow: the prompt has N tokens, the context holds M") when it cannot fit.
runtime::Result<ContextPlan> plan_context(const ContextPolicy& policy,
                                          const std::vector<int32_t>& prompt);

}  // namespace ember::llm
