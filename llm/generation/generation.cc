#include "llm/generation/generation.h"

#include <algorithm>

#include "llm/generation/text_streamer.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {

const char* stop_reason_name(StopReason reason) {
  switch (reason) {
    case StopReason::StopToken:
      return "stop_token";
    case StopReason::StopString:
      return "stop_string";
    case StopReason::MaxNewTokens:
      return "max_new_tokens";
    case StopReason::ContextFull:
      return "context_full";
    case StopReason::Cancelled:
      return "cancelled";
  }
  return "unknown";
}

Result<GenerationResult> generate(LogitsModel& model, const Tokenizer& tokenizer,
                                  const std::vector<int32_t>& prompt,
                                  const GenerationConfig& config, const TextCallback& on_text) {
  EMBER_ASSIGN_OR_RETURN(ContextPlan plan, plan_context(config.context, prompt));
  EMBER_ASSIGN_OR_RETURN(Sampler sampler, Sampler::create(config.sampling));
  GenerationResult result;
  result.prompt_tokens = static_cast<int32_t>(plan.prompt.size());
  result.dropped_tokens = plan.dropped;
  TextStreamer streamer(tokenizer, config.stop_strings);
  std::vector<int32_t> history = plan.prompt;
  auto emit = [&](const std::string& text) {
    result.text += text;
    return text.empty() || !on_text || on_text(text);
  };
  EMBER_ASSIGN_OR_RETURN(std::vector<float> logits, model.forward(plan.prompt, 0));
  for (int32_t step = 0;; ++step) {
    if (step == plan.new_tokens) {
      const bool full = result.prompt_tokens + step >= config.context.context_length;
      result.reason = full ? StopReason::ContextFull : StopReason::MaxNewTokens;
      break;
    }
    EMBER_ASSIGN_OR_RETURN(int32_t token, sampler.sample(logits, history));
    if (std::find(config.stop_tokens.begin(), config.stop_tokens.end(), token) !=
        config.stop_tokens.end()) {
      result.reason = StopReason::StopToken;
      break;
    }
    result.tokens.push_back(token);
    history.push_back(token);
    EMBER_ASSIGN_OR_RETURN(StreamStep piece, streamer.push(token));
    if (!emit(piece.text)) {
      result.reason = StopReason::Cancelled;
      return result;
    }
    if (piece.stopped) {
      result.reason = StopReason::StopString;
      return result;
    }
    if (step + 1 == plan.new_tokens) continue;  // no forward for a token nobody samples after
    auto next = model.forward({token}, result.prompt_tokens + step);
    if (!next.ok()) return runtime::annotate(next.error(), "decode step %d", step);
    logits = std::move(next.get());
  }
  emit(streamer.finish());
  return result;
}

}  // namespace ember::llm
