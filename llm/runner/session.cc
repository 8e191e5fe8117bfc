#include "llm/runner/session.h"

#include <algorithm>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

Result<std::vector<float>> Session::forward(const std::vector<int32_t>& tokens, int32_t start_pos) {
  const int64_t n = static_cast<int64_t>(tokens.size());
  last_reused_ = 0;
  if (n == 0) return runtime::fail(Error::InvalidArgument, "session: no tokens to run");
  if (start_pos < 0 || start_pos > position()) {
    return runtime::fail(Error::InvalidArgument,
                         "session: cannot run at position %d; the session holds %d tokens",
                         start_pos, position());
  }
  if (start_pos + n > context_length_) {
    return runtime::fail(Error::OutOfResources,
                         "context overflow: %lld tokens at position %d pass the context of %d",
                         static_cast<long long>(n), start_pos, context_length_);
  }
  // The run's prefix already in the cache.
  int64_t same = 0;
  while (same < n && start_pos + same < position() && history_[start_pos + same] == tokens[same]) {
    ++same;
  }
  if (same == n && start_pos + n == position() && !last_logits_.empty()) {
    last_reused_ = static_cast<int32_t>(n);
    stats_.reused_tokens += n;
    return last_logits_;
  }
  if (same == n) --same;  // the last token runs again for its logits
  last_reused_ = static_cast<int32_t>(same);
  stats_.reused_tokens += same;
  last_logits_.clear();
  const int32_t from = start_pos + static_cast<int32_t>(same);
  history_.resize(from);
  for (int64_t begin = same; begin < n; begin += max_chunk_) {
    const int64_t end = std::min<int64_t>(n, begin + max_chunk_);
    std::vector<int32_t> chunk(tokens.begin() + begin, tokens.begin() + end);
    ++stats_.model_calls;
    auto out = model_.forward(chunk, start_pos + static_cast<int32_t>(begin));
    if (!out.ok()) return out.error();  // the history keeps the chunks that ran
    stats_.evaluated_tokens += end - begin;
    history_.insert(history_.end(), chunk.begin(), chunk.end());
    if (end == n) last_logits_ = std::move(out.get());
  }
  return last_logits_;
}

Error Session::truncate(int32_t position) {
  if (position < 0 || position > this->position()) {
    return runtime::fail(Error::InvalidArgument,
                         "session: cannot rewind to position %d; the session holds %d tokens",
                         position, this->position());
  }
  history_.resize(position);
  last_logits_.clear();
  return Error::Ok;
}

Error Session::restore(std::vector<int32_t> tokens, std::vector<float> logits) {
  if (static_cast<int64_t>(tokens.size()) > context_length_) {
    return runtime::fail(Error::InvalidArgument,
                         "session: %zu restored tokens do not fit the context of %d",
                         tokens.size(), context_length_);
  }
  history_ = std::move(tokens);
  last_logits_ = std::move(logits);
  if (history_.empty()) last_logits_.clear();
  last_reused_ = 0;
  stats_ = SessionStats();
  return Error::Ok;
}

}  // namespace ember::llm
