// Session: one conversation on a LogitsModel whose KV cache lives inside the model (a lowered
// decoder, pte_logits_model.h). It keeps the position (the number of tokens in the cache) and the
// token history, splits a prefill longer than the model's bound into chunks, and is itself a
// LogitsModel, so generate() (llm/generation/generation.h) runs on it and the session records
// what was generated. Running at a position before the current one rewinds: the cache slots from
// there on are rewritten, and the model's attention never reads a slot past the position it is
// given, so nothing stale is seen.
#pragma once

#include <cstdint>
#include <vector>

#include "llm/generation/generation.h"

namespace ember::llm {

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

  // Appends `tokens` at position().
  Result<std::vector<float>> append(const std::vector<int32_t>& tokens) {
    return forward(tokens, position());
  }

  int32_t position() const { return static_cast<int32_t>(history_.size()); }
  const std::vector<int32_t>& tokens() const { return history_; }
  int32_t context_length() const { return context_length_; }
  // Model calls made so far (prefill chunks and decode steps).
  int64_t model_calls() const { return model_calls_; }

 private:
  LogitsModel& model_;
  int32_t max_chunk_;
  int32_t context_length_;
  std::vector<int32_t> history_;
  int64_t model_calls_ = 0;
};

}  // namespace ember::llm
