// The tokenizer interface the generation loop and apps use, whatever file the model ships:
// a Hugging Face tokenizer.json (HfTokenizer), a SentencePiece .model (SentencePieceTokenizer) or
// a tiktoken rank file (TiktokenTokenizer). Text in and out is bytes: invalid UTF-8 in the input
// is read as U+FFFD (utf8.h), exactly as Python reads it with errors="replace"; decode() returns
// valid UTF-8 as the Python libraries do. Loaders treat files as untrusted: a malformed file is a
// named Error with a message (last_error_message()), never a crash.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

using runtime::Error;
using runtime::Result;

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  // The ids of `text`. `add_special_tokens` adds what the file's post-processor adds (BOS for
  // Llama 3, nothing for GPT-2; a SentencePiece model's BOS). Special-token text inside `text`
  // is recognised where the file's own library recognises it (tokenizer.json added tokens,
  // tiktoken special tokens; SentencePiece reads control-token text as plain text).
  virtual Result<std::vector<int32_t>> encode(std::string_view text,
                                              bool add_special_tokens) const = 0;

  // The text of `ids` (valid UTF-8). InvalidArgument names an id outside the vocabulary.
  virtual Result<std::string> decode(const std::vector<int32_t>& ids,
                                     bool skip_special_tokens) const = 0;

  // Number of ids (the largest id + 1).
  virtual int32_t vocab_size() const = 0;

  // The id of a token's text (special tokens included), if there is one.
  virtual std::optional<int32_t> token_id(std::string_view token) const = 0;

  // True for the ids of special (control) tokens.
  virtual bool is_special(int32_t id) const = 0;
};

// Loads a tokenizer by file kind: "*.json" -> HfTokenizer, "*.model" -> SentencePieceTokenizer,
// "*.tiktoken" -> TiktokenTokenizer (with the cl100k split regex and no special tokens; call
// TiktokenTokenizer::load for others). NotSupported for other names.
Result<std::unique_ptr<Tokenizer>> load_tokenizer(const std::string& path);

// Reads a whole file (bounded to `max_bytes`); AccessFailed names the path.
Result<std::string> read_text_file(const std::string& path, size_t max_bytes);

}  // namespace ember::llm
