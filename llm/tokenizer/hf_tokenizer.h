// A Hugging Face tokenizer.json with a BPE model: byte-level BPE (GPT-2, Llama 3, Qwen, SmolLM)
// and the SentencePiece-converted character BPE with byte fallback (Llama 2, Gemma style).
// encode: split out added tokens, then per plain segment normalize, pre-tokenize, BPE each
// word; then the post-processor's template (TemplateProcessing; ByteLevel is a no-op on ids).
// decode: ids to token strings, the decoder, then invalid UTF-8 to U+FFFD (from_utf8_lossy).
// Unsupported components (a WordPiece or Unigram model, an unknown normalizer) are NotSupported
// with the component's name; malformed files are InvalidExternalData.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "llm/tokenizer/added_tokens.h"
#include "llm/tokenizer/bpe_model.h"
#include "llm/tokenizer/hf_decoder.h"
#include "llm/tokenizer/hf_normalizer.h"
#include "llm/tokenizer/hf_pre_tokenizer.h"
#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

class HfTokenizer final : public Tokenizer {
 public:
  // Parses the text of a tokenizer.json.
  static Result<std::unique_ptr<HfTokenizer>> from_json(std::string_view json_text);
  static Result<std::unique_ptr<HfTokenizer>> load(const std::string& path);

  Result<std::vector<int32_t>> encode(std::string_view text,
                                      bool add_special_tokens) const override;
  Result<std::string> decode(const std::vector<int32_t>& ids,
                             bool skip_special_tokens) const override;
  int32_t vocab_size() const override { return static_cast<int32_t>(id_to_token_.size()); }
  std::optional<int32_t> token_id(std::string_view token) const override;
  bool is_special(int32_t id) const override;

 private:
  HfTokenizer() = default;
  Error parse_model(const nlohmann::json& model);
  Error parse_merges(const nlohmann::json& merges);
  Error parse_added_tokens(const nlohmann::json& list);
  Error parse_post_processor(const nlohmann::json& value, int depth);
  Error encode_segment(std::string segment, bool first, std::vector<int32_t>* ids) const;

  std::unique_ptr<HfNormalizer> normalizer_;
  std::unique_ptr<HfPreTokenizer> pre_tokenizer_;
  std::unique_ptr<HfDecoder> decoder_;
  BpeModel bpe_;
  AddedTokens added_;
  std::unordered_map<std::string, int32_t> token_to_id_;  // the vocabulary's text + added
  std::vector<std::string> id_to_token_;
  std::vector<bool> special_;
  // TemplateProcessing "single": ids before and after the sequence.
  std::vector<int32_t> prefix_ids_, suffix_ids_;
};

}  // namespace ember::llm
