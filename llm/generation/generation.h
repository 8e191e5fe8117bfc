// The generation loop: prefill the prompt, then sample one token at a time until a stop token, a
// stop string (streaming-safe, text_streamer.h), max_new_tokens, the context's end or the caller
// cancels; text is handed to a callback as it settles. The model is anything that returns the
// logits of the last position for a run of tokens at a position (the KV-cache lives in the
// model), so the loop does not depend on how part 1 runs the .pte.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "llm/generation/context_policy.h"
#include "llm/generation/sampler.h"
#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

class LogitsModel {
 public:
  virtual ~LogitsModel() = default;
  // Runs `tokens` at positions start_pos, start_pos + 1, ...; returns the logits (one per
  // vocabulary id) after the last of them.
  virtual Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                             int32_t start_pos) = 0;
  // How many of the last forward()'s tokens were already in the cache and not run again
  // (prefix reuse, llm/runner/session.h); 0 for a model without one.
  virtual int32_t reused_tokens() const { return 0; }
};

enum class StopReason { StopToken, StopString, MaxNewTokens, ContextFull, Cancelled };

const char* stop_reason_name(StopReason reason);

struct GenerationConfig {
  SamplingConfig sampling;
  ContextPolicy context;
  std::vector<int32_t> stop_tokens;       // e.g. EOS, <|eot_id|>; not part of the output
  std::vector<std::string> stop_strings;  // the text stops before the first of them
  // When set, sampling draws from this generator and leaves it where the stream stopped,
  // instead of a fresh one seeded with sampling.seed: a conversation continued later (or saved
  // and restored) continues its stream, so the tokens equal an uninterrupted run's.
  Rng* rng = nullptr;
  // Also runs the last generated token through the model, so its cache slot is filled and the
  // logits after it are known: the conversation can then be continued or saved. One more
  // decode step; off by default (nobody samples after the last token of a one-shot run).
  bool evaluate_last_token = false;
};

struct GenerationResult {
  std::vector<int32_t> tokens;  // generated ids (a stop token excluded)
  std::string text;             // the streamed text, in full
  StopReason reason = StopReason::MaxNewTokens;
  int32_t prompt_tokens = 0;   // prefilled (after the context policy)
  int32_t dropped_tokens = 0;  // dropped by the context policy
  // Figures: prompt tokens run through the model and those already in its cache (prefix
  // reuse; prompt_tokens = prefill_evaluated + prefill_reused), decode steps run, and the
  // wall time of the prefill, of the decode steps, and from the start to the first token.
  int32_t prefill_evaluated = 0;
  int32_t prefill_reused = 0;
  int32_t decode_steps = 0;
  uint64_t prefill_ns = 0;
  uint64_t decode_ns = 0;
  uint64_t first_token_ns = 0;
};

// Called with each piece of settled text; return false to cancel.
using TextCallback = std::function<bool(std::string_view)>;

Result<GenerationResult> generate(LogitsModel& model, const Tokenizer& tokenizer,
                                  const std::vector<int32_t>& prompt,
                                  const GenerationConfig& config, const TextCallback& on_text);

}  // namespace ember::llm
