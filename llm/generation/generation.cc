#include "llm/generation/generation.h"

#include <algorithm>

#include "llm/generation/text_streamer.h"
#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"

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

namespace {

// Keeps the caller's generator in step with the sampler's on every way out of generate().
struct RngSync {
  Rng* rng;
  const Sampler& sampler;
  ~RngSync() {
    if (rng != nullptr) *rng = sampler.rng();
  }
};

}  // namespace

Result<GenerationResult> generate(LogitsModel& model, const Tokenizer& tokenizer,
                                  const std::vector<int32_t>& prompt,
                                  const GenerationConfig& config, const TextCallback& on_text) {
  EMBER_ASSIGN_OR_RETURN(ContextPlan plan, plan_context(config.context, prompt));
  EMBER_ASSIGN_OR_RETURN(Sampler sampler, Sampler::create(config.sampling));
  if (config.rng != nullptr) sampler.set_rng(*config.rng);
  RngSync sync{config.rng, sampler};
  GenerationResult result;
  result.prompt_tokens = static_cast<int32_t>(plan.prompt.size());
  result.dropped_tokens = plan.dropped;
  TextStreamer streamer(tokenizer, config.stop_strings);
  std::vector<int32_t> history = plan.prompt;
  auto emit = [&](const std::string& text) {
    result.text += text;
    return text.empty() || !on_text || on_text(text);
  };
  const uint64_t start = ember_pal_now_ns();
  EMBER_ASSIGN_OR_RETURN(std::vector<float> logits, model.forward(plan.prompt, 0));
  result.prefill_ns = ember_pal_now_ns() - start;
  result.prefill_reused = model.reused_tokens();
  result.prefill_evaluated = result.prompt_tokens - result.prefill_reused;
  auto decode = [&](int32_t token, int32_t step) -> Error {
    const uint64_t begin = ember_pal_now_ns();
    auto next = model.forward({token}, result.prompt_tokens + step);
    result.decode_ns += ember_pal_now_ns() - begin;
    ++result.decode_steps;
    if (!next.ok()) return runtime::annotate(next.error(), "decode step %d", step);
    logits = std::move(next.get());
    return Error::Ok;
  };
  for (int32_t step = 0;; ++step) {
    if (step == plan.new_tokens) {
      const bool full = result.prompt_tokens + step >= config.context.context_length;
      result.reason = full ? StopReason::ContextFull : StopReason::MaxNewTokens;
      break;
    }
    EMBER_ASSIGN_OR_RETURN(int32_t token, sampler.sample(logits, history));
    if (step == 0) result.first_token_ns = ember_pal_now_ns() - start;
    if (std::find(config.stop_tokens.begin(), config.stop_tokens.end(), token) !=
        config.stop_tokens.end()) {
      result.reason = StopReason::StopToken;
      break;
    }
    result.tokens.push_back(token);
    history.push_back(token);
    EMBER_ASSIGN_OR_RETURN(StreamStep piece, streamer.push(token));
    const bool cancelled = !emit(piece.text);
    const bool last = cancelled || piece.stopped || step + 1 == plan.new_tokens;
    // No forward for a token nobody samples after, unless the conversation goes on.
    if (!last || config.evaluate_last_token) EMBER_TRY(decode(token, step));
    if (cancelled) {
      result.reason = StopReason::Cancelled;
      return result;
    }
    if (piece.stopped) {
      result.reason = StopReason::StopString;
      return result;
    }
  }
  emit(streamer.finish());
  return result;
}

}  // namespace ember::llm
