#include "llm/runner/session.h"

#include <algorithm>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

Result<std::vector<float>> Session::forward(const std::vector<int32_t>& tokens, int32_t start_pos) {
  const int64_t n = static_cast<int64_t>(tokens.size());
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
  std::vector<float> logits;
  for (int64_t begin = 0; begin < n; begin += max_chunk_) {
    const int64_t end = std::min<int64_t>(n, begin + max_chunk_);
    std::vector<int32_t> chunk(tokens.begin() + begin, tokens.begin() + end);
    ++model_calls_;
    auto out = model_.forward(chunk, start_pos + static_cast<int32_t>(begin));
    if (!out.ok()) {
      // The history keeps the chunks that ran; the failed one is not in it.
      history_.resize(start_pos + begin);
      return out.error();
    }
    logits = std::move(out.get());
    history_.resize(start_pos + begin);
    history_.insert(history_.end(), chunk.begin(), chunk.end());
  }
  return logits;
}

}  // namespace ember::llm
