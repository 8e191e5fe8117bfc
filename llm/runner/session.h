// Session: one conversation on a LogitsModel whose KV cache lives inside the model (a lowered
// decoder, pte_logits_model.h). It keeps the position (the number of tokens in the cache), the
// token history and the logits after the last token, splits a prefill longer than the model's
// bound into chunks, and is itself a LogitsModel, so generate() (llm/generation/generation.h)
// runs on it and the session records what was generated.
//
// Running at a position before the current one rewinds: the cache slots from there on are
// rewritten, and the model's attention never reads a slot past the position it is given, so
// nothing stale is seen. Prefix reuse: the tokens of a run that equal the history at their
// positions are already in the cache and are not run again (a conversation re-sent whole each
// turn, or a shared system prompt, costs only its new tokens); when the whole run matches, the
// last token is run again for its logits unless the session holds them already.
#pragma once

#include <cstdint>
#include <vector>

#include "llm/generation/generation.h"

namespace ember::llm {

// What a session ran, cumulative since it was made (or restored).
struct SessionStats {
  int64_t evaluated_tokens = 0;  // run through the model
  int64_t reused_tokens = 0;     // found in the cache and skipped (prefix reuse)
  int64_t model_calls = 0;       // prefill chunks and decode steps
};

class Session final : public LogitsModel {
 public:
  // `model` must outlive the session; `max_chunk` (>= 1) is the longest run one model call
  // takes, `context_length` the positions its cache holds.
  Session(LogitsModel& model, int32_t max_chunk, int32_t context_length)
      : model_(model), max_chunk_(max_chunk), context_length_(context_length) {}

  // Runs `tokens` at start_pos.. (start_pos <= position(); earlier positions rewind) and
  // returns the logits after the last. InvalidArgument for a start past position(), no tokens,
  // OutOfResources for a run past the context; after a model error the history holds the chunks
  // that ran.
  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                     int32_t start_pos) override;
  int32_t reused_tokens() const override { return last_reused_; }

  // Appends `tokens` at position().
  Result<std::vector<float>> append(const std::vector<int32_t>& tokens) {
    return forward(tokens, position());
  }

  // Forgets the tokens from `position` on (0 <= position <= position()); the next run starts
  // there. InvalidArgument otherwise.
  Error truncate(int32_t position);

  // Replaces the history and the logits after its last token (a restored session: the caller
  // has put the matching cache contents into the model). `logits` may be empty (unknown).
  // InvalidArgument when the tokens do not fit the context.
  Error restore(std::vector<int32_t> tokens, std::vector<float> logits);

  int32_t position() const { return static_cast<int32_t>(history_.size()); }
  const std::vector<int32_t>& tokens() const { return history_; }
  // The logits after the last token, empty when unknown (a failed run, a truncation).
  const std::vector<float>& last_logits() const { return last_logits_; }
  int32_t context_length() const { return context_length_; }
  int64_t model_calls() const { return stats_.model_calls; }
  const SessionStats& stats() const { return stats_; }

 private:
  LogitsModel& model_;
  int32_t max_chunk_;
  int32_t context_length_;
  std::vector<int32_t> history_;
  std::vector<float> last_logits_;
  int32_t last_reused_ = 0;
  SessionStats stats_;
};

}  // namespace ember::llm
