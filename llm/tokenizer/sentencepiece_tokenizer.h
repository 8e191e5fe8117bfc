// A SentencePiece .model file (Llama 2, Gemma, T5; unigram or BPE), read and run by Debian's
// libsentencepiece-dev: its own protobuf reader and normalizer, nothing re-implemented here.
// Input is made valid UTF-8 first (utf8.h), as the Python binding receives a str.
#pragma once

#include <memory>
#include <string>

#include "llm/tokenizer/tokenizer.h"

namespace sentencepiece {
class SentencePieceProcessor;
}

namespace ember::llm {

class SentencePieceTokenizer final : public Tokenizer {
 public:
  static Result<std::unique_ptr<SentencePieceTokenizer>> load(const std::string& path);
  // From the bytes of a .model file.
  static Result<std::unique_ptr<SentencePieceTokenizer>> from_bytes(std::string_view model);
  ~SentencePieceTokenizer() override;

  // add_special_tokens prepends the model's BOS (when it has one), as Llama 2's does.
  Result<std::vector<int32_t>> encode(std::string_view text,
                                      bool add_special_tokens) const override;
  Result<std::string> decode(const std::vector<int32_t>& ids,
                             bool skip_special_tokens) const override;
  int32_t vocab_size() const override;
  std::optional<int32_t> token_id(std::string_view token) const override;
  bool is_special(int32_t id) const override;

 private:
  SentencePieceTokenizer();
  std::unique_ptr<sentencepiece::SentencePieceProcessor> processor_;
};

}  // namespace ember::llm
