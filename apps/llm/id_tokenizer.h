// IdTokenizer: token ids as their decimal text ("120 116 33 "), for programs run without a
// tokenizer file (ember_llm --prompt_ids with no --tokenizer): the test fixtures are random-weight
// models with no trained vocabulary, so their ids are the only honest text. decode() of a longer
// list extends the decode of its prefix, as TextStreamer needs.
#pragma once

#include <string>

#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

class IdTokenizer final : public Tokenizer {
 public:
  explicit IdTokenizer(int32_t vocab_size) : vocab_size_(vocab_size) {}

  // Space-separated decimal ids; InvalidArgument names text that is not one.
  Result<std::vector<int32_t>> encode(std::string_view text, bool) const override;
  Result<std::string> decode(const std::vector<int32_t>& ids, bool) const override;
  int32_t vocab_size() const override { return vocab_size_; }
  std::optional<int32_t> token_id(std::string_view) const override { return std::nullopt; }
  bool is_special(int32_t) const override { return false; }

 private:
  int32_t vocab_size_;
};

}  // namespace ember::llm
