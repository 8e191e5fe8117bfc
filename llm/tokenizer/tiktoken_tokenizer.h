// A tiktoken rank file (cl100k_base.tiktoken, o200k_base.tiktoken, Llama 3's tokenizer.model):
// one "<base64 token bytes> <rank>" line per token, the rank being the id. Encoding splits with
// the encoding's regex, then merges bytes by rank (a pair merges if their concatenation is a
// token; the lowest rank first), which is byte-level BPE where every split of a token into two
// tokens is a merge. The regex and special tokens are not in the file: the caller names them.
#pragma once

#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "llm/tokenizer/added_tokens.h"
#include "llm/tokenizer/bpe_model.h"
#include "llm/tokenizer/regex_splitter.h"
#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

// cl100k_base's split regex (GPT-3.5/4); o200k's and others are passed to load().
extern const char kCl100kSplitPattern[];

class TiktokenTokenizer final : public Tokenizer {
 public:
  static Result<std::unique_ptr<TiktokenTokenizer>> load(
      const std::string& path, const std::string& pattern = kCl100kSplitPattern,
      const std::vector<std::pair<std::string, int32_t>>& special_tokens = {});
  static Result<std::unique_ptr<TiktokenTokenizer>> from_text(
      std::string_view ranks, const std::string& pattern,
      const std::vector<std::pair<std::string, int32_t>>& special_tokens);

  // add_special_tokens has nothing to add (tiktoken adds none).
  Result<std::vector<int32_t>> encode(std::string_view text,
                                      bool add_special_tokens) const override;
  Result<std::string> decode(const std::vector<int32_t>& ids,
                             bool skip_special_tokens) const override;
  int32_t vocab_size() const override { return static_cast<int32_t>(id_to_bytes_.size()); }
  std::optional<int32_t> token_id(std::string_view token) const override;
  bool is_special(int32_t id) const override;

 private:
  TiktokenTokenizer(RegexSplitter splitter) : splitter_(std::move(splitter)) {}
  Error parse_ranks(std::string_view ranks);

  RegexSplitter splitter_;
  BpeModel bpe_;
  AddedTokens specials_;
  std::vector<std::string> id_to_bytes_;
  std::vector<bool> special_;
};

}  // namespace ember::llm
