// Added (special) tokens: strings matched in the raw input before any normalization or
// pre-tokenization, and encoded as their own id. Matching is leftmost-longest, as Hugging Face's
// added vocabulary and tiktoken's special tokens do; lstrip / rstrip let a token absorb the
// whitespace beside it, single_word requires it not to sit inside a word.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ember::llm {

struct AddedToken {
  int32_t id = -1;
  std::string content;
  bool special = false;
  bool lstrip = false;
  bool rstrip = false;
  bool single_word = false;
};

// A piece of input: plain text to tokenize, or one added token.
struct TextSegment {
  std::string_view text;  // plain text (token < 0)
  int32_t token = -1;     // the added token's id
};

class AddedTokens {
 public:
  void add(AddedToken token);
  bool empty() const { return tokens_.empty(); }
  const std::vector<AddedToken>& tokens() const { return tokens_; }

  // Cuts `text` into plain segments and added tokens, in order (plain segments may be empty
  // and are then left out).
  void split(std::string_view text, std::vector<TextSegment>* out) const;

 private:
  // Length of the match of `token` at `pos`, extended by lstrip/rstrip, with its start; 0 if it
  // does not match there.
  bool match_at(const AddedToken& token, std::string_view text, size_t pos) const;

  std::vector<AddedToken> tokens_;
  std::vector<std::vector<size_t>> by_first_byte_ = std::vector<std::vector<size_t>>(256);
};

}  // namespace ember::llm
