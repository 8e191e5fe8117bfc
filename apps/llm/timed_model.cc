#include "apps/llm/timed_model.h"

#include "runtime/platform/log.h"

namespace ember::llm {

Result<std::vector<float>> TimedModel::forward(const std::vector<int32_t>& tokens,
                                               int32_t start_pos) {
  const uint64_t begin = ember_pal_now_ns();
  if (calls_ == 0) start_ns_ = begin;
  if (calls_ == 1) first_token_ns_ = begin - start_ns_;
  auto out = inner_.forward(tokens, start_pos);
  const uint64_t took = ember_pal_now_ns() - begin;
  if (calls_++ == 0) {
    prefill_ns_ = took;
  } else {
    decode_ns_ += took;
    ++decode_calls_;
  }
  return out;
}

}  // namespace ember::llm
