// A tokenizer.json "decoder": token strings back to text. Supported: Sequence, ByteLevel (the
// byte-level alphabet back to bytes), Metaspace, Replace (string pattern), ByteFallback
// ("<0xXX>" tokens to bytes), Fuse and Strip, as GPT-2/Llama 3/Qwen/SmolLM and the
// SentencePiece-converted Llama 2/Gemma files use them. Each step maps a list of token strings
// to a new list, as the Python library does; the result is their concatenation.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

class HfDecoder {
 public:
  // Parses the "decoder" value (null: tokens are concatenated as they are).
  static runtime::Result<std::unique_ptr<HfDecoder>> parse(const nlohmann::json& value);

  // The bytes of `tokens` (not yet made valid UTF-8).
  std::string decode(std::vector<std::string> tokens) const;

 private:
  enum class Kind { ByteLevel, Metaspace, Replace, ByteFallback, Fuse, Strip };
  struct Step {
    Kind kind;
    std::string a, b;         // Metaspace: replacement; Replace: pattern, content; Strip: content
    int start = 0, stop = 0;  // Strip
    bool prepend = true;      // Metaspace: strip the first token's leading space
  };
  runtime::Error add(const nlohmann::json& value, int depth);
  static void apply(const Step& step, std::vector<std::string>* tokens);

  std::vector<Step> steps_;
};

}  // namespace ember::llm
