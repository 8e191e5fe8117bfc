// TimedModel: a LogitsModel that passes each call to another and times it, for ember_llm's
// figures: the first call of a generation is the prefill, the later ones decode steps; the time
// to first token runs from the first call to the start of the second (the token is sampled and
// streamed in between).
#pragma once

#include <cstdint>

#include "llm/generation/generation.h"

namespace ember::llm {

class TimedModel final : public LogitsModel {
 public:
  explicit TimedModel(LogitsModel& inner) : inner_(inner) {}

  Result<std::vector<float>> forward(const std::vector<int32_t>& tokens,
                                     int32_t start_pos) override;
  int32_t reused_tokens() const override { return inner_.reused_tokens(); }

  uint64_t prefill_ns() const { return prefill_ns_; }
  uint64_t decode_ns() const { return decode_ns_; }
  int64_t decode_calls() const { return decode_calls_; }
  // 0 until the second call starts.
  uint64_t first_token_ns() const { return first_token_ns_; }

 private:
  LogitsModel& inner_;
  int64_t calls_ = 0;
  int64_t decode_calls_ = 0;
  uint64_t start_ns_ = 0;
  uint64_t prefill_ns_ = 0;
  uint64_t decode_ns_ = 0;
  uint64_t first_token_ns_ = 0;
};

}  // namespace ember::llm
