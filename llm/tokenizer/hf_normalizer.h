// A tokenizer.json "normalizer": the text rewrite before pre-tokenization. Supported, as the
// BPE families use them: Sequence, NFC / NFD / NFKC / NFKD (ICU, Debian's libicu-dev; Qwen2 uses
// NFC), Prepend and Replace (string or regex; the SentencePiece-converted Llama 2 / Gemma files
// use Prepend("▁") + Replace(" ", "▁")). Any other type is NotSupported, named.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "llm/tokenizer/regex_splitter.h"
#include "runtime/core/result.h"

namespace ember::llm {

class HfNormalizer {
 public:
  // Parses the "normalizer" value (null: no normalizer).
  static runtime::Result<std::unique_ptr<HfNormalizer>> parse(const nlohmann::json& value);

  // Rewrites `text` (valid UTF-8) in place; OutOfResources if a Replace regex gives up.
  runtime::Error apply(std::string* text) const;

  bool empty() const { return steps_.empty(); }

 private:
  enum class Kind { Unicode, Prepend, ReplaceString, ReplaceRegex };
  struct Step {
    Kind kind;
    int unicode_form = 0;  // 0 NFC, 1 NFD, 2 NFKC, 3 NFKD
    std::string text;      // Prepend: the prefix; Replace: the pattern string
    std::string content;   // Replace: the replacement
    std::unique_ptr<RegexSplitter> regex;
  };
  runtime::Error add(const nlohmann::json& value, int depth);

  std::vector<Step> steps_;
};

// Replaces every occurrence of `pattern` (non-empty) in `text` with `content`.
void replace_all(std::string* text, const std::string& pattern, const std::string& content);

}  // namespace ember::llm
