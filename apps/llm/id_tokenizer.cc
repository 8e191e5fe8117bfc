#include "apps/llm/id_tokenizer.h"

#include <cstdlib>

#include "runtime/core/diagnostics.h"

namespace ember::llm {

Result<std::vector<int32_t>> IdTokenizer::encode(std::string_view text, bool) const {
  std::vector<int32_t> ids;
  size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == ',') {
      ++i;
      continue;
    }
    size_t j = i;
    int64_t value = 0;
    while (j < text.size() && text[j] >= '0' && text[j] <= '9' && value <= vocab_size_) {
      value = value * 10 + (text[j] - '0');
      ++j;
    }
    const bool separated = j == text.size() || text[j] == ' ' || text[j] == ',';
    if (j == i || !separated || value >= vocab_size_) {
      return runtime::fail(
          Error::InvalidArgument, "token ids: '%.*s' at byte %zu is not an id in [0, %d)",
          static_cast<int>(std::min<size_t>(text.size() - i, 16)), text.data() + i, i, vocab_size_);
    }
    ids.push_back(static_cast<int32_t>(value));
    i = j;
  }
  return ids;
}

Result<std::string> IdTokenizer::decode(const std::vector<int32_t>& ids, bool) const {
  std::string text;
  for (int32_t id : ids) {
    if (id < 0 || id >= vocab_size_) {
      return runtime::fail(Error::InvalidArgument, "token id %d is outside [0, %d)", id,
                           vocab_size_);
    }
    text += std::to_string(id);
    text += ' ';
  }
  return text;
}

}  // namespace ember::llm
