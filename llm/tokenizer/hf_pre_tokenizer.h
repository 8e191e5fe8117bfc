// A tokenizer.json "pre_tokenizer": how a text segment is cut into words before BPE. Supported:
// Sequence, Split (regex or string pattern; behaviours Isolated, Removed, MergedWithPrevious,
// MergedWithNext; invert), ByteLevel (GPT-2's regex when use_regex, add_prefix_space), Digits,
// Metaspace, Whitespace and WhitespaceSplit. GPT-2 is ByteLevel(use_regex); Llama 3 and Qwen are
// Sequence[Split(their regex, Isolated), ByteLevel(use_regex=false)]; SmolLM is
// Sequence[Digits(individual), ByteLevel(use_regex)]. A step that rewrites the text
// (ByteLevel's add_prefix_space, Metaspace) must come first in the sequence, else NotSupported.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "llm/tokenizer/regex_splitter.h"
#include "runtime/core/result.h"

namespace ember::llm {

// GPT-2's split regex (the one ByteLevel uses when use_regex is true).
extern const char kGpt2SplitPattern[];

enum class SplitBehavior { Isolated, Removed, MergedWithPrevious, MergedWithNext };

class HfPreTokenizer {
 public:
  // Parses the "pre_tokenizer" value (null: the whole segment is one word).
  static runtime::Result<std::unique_ptr<HfPreTokenizer>> parse(const nlohmann::json& value);

  // The text rewrite of a leading ByteLevel(add_prefix_space) or Metaspace, on one segment
  // (`first`: the segment starts the input, for Metaspace's prepend_scheme "first").
  void rewrite(std::string* segment, bool first) const;

  // Appends the [begin, end) ranges of the words of `segment` (after rewrite()); a split regex
  // that gives up is OutOfResources (regex_splitter.h).
  runtime::Error split(const std::string& segment,
                       std::vector<std::pair<size_t, size_t>>* words) const;

  // True if some step is ByteLevel: words are then BPE'd over bytes.
  bool byte_level() const { return byte_level_; }

 private:
  struct Step {
    std::unique_ptr<RegexSplitter> regex;
    SplitBehavior behavior = SplitBehavior::Isolated;
    bool invert = false;
  };
  runtime::Error add(const nlohmann::json& value, int depth);
  runtime::Error add_split(const std::string& pattern, SplitBehavior behavior, bool invert);
  runtime::Error apply(const Step& step, const std::string& text,
                       const std::vector<std::pair<size_t, size_t>>& in,
                       std::vector<std::pair<size_t, size_t>>* out) const;

  std::vector<Step> steps_;
  bool byte_level_ = false;
  bool add_prefix_space_ = false;
  std::string metaspace_;   // Metaspace replacement ("" when there is no Metaspace step)
  int prepend_scheme_ = 0;  // Metaspace: 0 always, 1 first, 2 never
};

}  // namespace ember::llm
