// A pre-tokenizer's split regex, compiled once with PCRE2 (Debian's libpcre2-dev) in UTF mode
// with Unicode properties (\p{L}, \p{N}, Unicode \s), JIT-compiled when available. The patterns
// are the ones Hugging Face tokenizer.json files and tiktoken encodings carry (GPT-2, Llama 3,
// Qwen, SmolLM); PCRE2's syntax covers theirs (classes with properties, (?i:...), lookahead,
// possessive quantifiers). `$` is the end of the text only, as in tiktoken's Rust regex.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "runtime/core/result.h"

namespace ember::llm {

class RegexSplitter {
 public:
  // Compiles `pattern`; InvalidArgument (with PCRE2's message and offset) if it does not compile.
  static runtime::Result<RegexSplitter> compile(const std::string& pattern);

  RegexSplitter(RegexSplitter&&) noexcept;
  RegexSplitter& operator=(RegexSplitter&&) noexcept;
  ~RegexSplitter();

  // Appends the [begin, end) byte ranges of successive non-overlapping matches in `text`
  // (valid UTF-8, not checked again) to `out`. An empty match advances by one character.
  // OutOfResources if PCRE2 gives up (a match or JIT stack limit), naming the byte offset.
  runtime::Error find_all(std::string_view text, std::vector<std::pair<size_t, size_t>>* out) const;

  const std::string& pattern() const { return pattern_; }

 private:
  struct Impl;
  RegexSplitter(std::string pattern, std::unique_ptr<Impl> impl);
  std::string pattern_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ember::llm
