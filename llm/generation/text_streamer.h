// Turns generated ids into text as it is generated, safely: never prints half a UTF-8 character,
// never prints text that may turn out to be the start of a stop string, and stops at the first
// stop string even when it spans several tokens. Each step decodes the ids generated so far with
// the tokenizer (so decoders that depend on position, like SentencePiece's leading space, give the
// same text as one decode at the end) and hands out only the new, settled bytes.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "llm/tokenizer/tokenizer.h"

namespace ember::llm {

struct StreamStep {
  std::string text;      // printable now (may be empty)
  bool stopped = false;  // a stop string was reached; `text` ends just before it
};

class TextStreamer {
 public:
  // `tokenizer` must outlive the streamer. Empty stop strings are ignored.
  TextStreamer(const Tokenizer& tokenizer, std::vector<std::string> stop_strings,
               bool skip_special_tokens = true);

  // Adds one generated id. InvalidArgument for an id outside the vocabulary.
  Result<StreamStep> push(int32_t id);

  // The rest at the end of generation (held-back bytes, a trailing U+FFFD included).
  std::string finish();

  // All text handed out so far.
  const std::string& emitted() const { return emitted_text_; }
  bool stopped() const { return stopped_; }

 private:
  // Settles `text` (the decode of all ids): the new part, minus what must wait.
  StreamStep settle(const std::string& text, bool final);

  const Tokenizer& tokenizer_;
  std::vector<std::string> stop_strings_;
  bool skip_special_;
  std::vector<int32_t> ids_;
  std::string emitted_text_;
  std::string last_decode_;
  bool stopped_ = false;
};

// The longest suffix of `text` that is a proper prefix of one of `stops` (bytes to hold back).
size_t stop_prefix_overlap(const std::string& text, const std::vector<std::string>& stops);

}  // namespace ember::llm
