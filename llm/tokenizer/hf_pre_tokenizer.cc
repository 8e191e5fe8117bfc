#include "llm/tokenizer/hf_pre_tokenizer.h"

#include "llm/tokenizer/hf_json.h"
#include "llm/tokenizer/hf_normalizer.h"

namespace ember::llm {

const char kGpt2SplitPattern[] =
    "'s|'t|'re|'ve|'m|'ll|'d| ?\\p{L}+| ?\\p{N}+| ?[^\\s\\p{L}\\p{N}]+|\\s+(?!\\S)|\\s+";

namespace {

using hf_json::Json;
using runtime::Error;
using Ranges = std::vector<std::pair<size_t, size_t>>;

constexpr int kMaxDepth = 8;

// The characters of `text` quoted as a PCRE2 literal.
std::string quote_literal(const std::string& text) { return "\\Q" + text + "\\E"; }

Error parse_behavior(const std::string& name, SplitBehavior* out) {
  if (name == "Isolated")
    *out = SplitBehavior::Isolated;
  else if (name == "Removed")
    *out = SplitBehavior::Removed;
  else if (name == "MergedWithPrevious")
    *out = SplitBehavior::MergedWithPrevious;
  else if (name == "MergedWithNext")
    *out = SplitBehavior::MergedWithNext;
  else
    return runtime::fail(Error::NotSupported, "split behavior '%s' is not supported", name.c_str());
  return Error::Ok;
}

}  // namespace

runtime::Result<std::unique_ptr<HfPreTokenizer>> HfPreTokenizer::parse(const Json& value) {
  auto pre = std::make_unique<HfPreTokenizer>();
  if (!value.is_null()) EMBER_TRY_CONTEXT(pre->add(value, 0), "pre_tokenizer");
  return pre;
}

Error HfPreTokenizer::add_split(const std::string& pattern, SplitBehavior behavior, bool invert) {
  auto regex = RegexSplitter::compile(pattern);
  if (!regex.ok()) return regex.error();
  Step step;
  step.regex = std::make_unique<RegexSplitter>(std::move(regex.get()));
  step.behavior = behavior;
  step.invert = invert;
  steps_.push_back(std::move(step));
  return Error::Ok;
}

Error HfPreTokenizer::add(const Json& value, int depth) {
  EMBER_CHECK_OR_RETURN(depth < kMaxDepth, InvalidExternalData, "nested deeper than %d", kMaxDepth);
  std::string type;
  EMBER_TRY(hf_json::get_type(value, "pre_tokenizer", &type));
  const bool first = steps_.empty() && !byte_level_ && metaspace_.empty();
  if (type == "Sequence") {
    const Json* list = hf_json::member(value, "pretokenizers");
    EMBER_CHECK_OR_RETURN(list != nullptr && list->is_array(), InvalidExternalData,
                          "Sequence without a 'pretokenizers' list");
    for (const Json& item : *list) EMBER_TRY(add(item, depth + 1));
    return Error::Ok;
  }
  if (type == "ByteLevel") {
    bool use_regex = true, prefix = false;
    EMBER_TRY(hf_json::get_bool(value, "use_regex", &use_regex));
    EMBER_TRY(hf_json::get_bool(value, "add_prefix_space", &prefix));
    EMBER_CHECK_OR_RETURN(!prefix || first, NotSupported,
                          "ByteLevel with add_prefix_space after another pre-tokenizer");
    byte_level_ = true;
    add_prefix_space_ = prefix;
    return use_regex ? add_split(kGpt2SplitPattern, SplitBehavior::Isolated, false) : Error::Ok;
  }
  if (type == "Split") {
    const Json* pattern = hf_json::member(value, "pattern");
    EMBER_CHECK_OR_RETURN(pattern != nullptr && pattern->is_object(), InvalidExternalData,
                          "Split without a 'pattern' object");
    std::string regex, behavior_name;
    if (hf_json::member(*pattern, "Regex") != nullptr) {
      EMBER_TRY(hf_json::get_string(*pattern, "Regex", &regex, true));
    } else {
      std::string literal;
      EMBER_TRY(hf_json::get_string(*pattern, "String", &literal, true));
      EMBER_CHECK_OR_RETURN(!literal.empty(), InvalidExternalData, "Split on an empty string");
      regex = quote_literal(literal);
    }
    EMBER_TRY(hf_json::get_string(value, "behavior", &behavior_name, true));
    SplitBehavior behavior = SplitBehavior::Isolated;
    EMBER_TRY(parse_behavior(behavior_name, &behavior));
    bool invert = false;
    EMBER_TRY(hf_json::get_bool(value, "invert", &invert));
    return add_split(regex, behavior, invert);
  }
  if (type == "Digits") {
    bool individual = false;
    EMBER_TRY(hf_json::get_bool(value, "individual_digits", &individual));
    return add_split(individual ? "\\p{N}" : "\\p{N}+", SplitBehavior::Isolated, false);
  }
  if (type == "Whitespace") return add_split("\\w+|[^\\w\\s]+", SplitBehavior::Removed, true);
  if (type == "WhitespaceSplit") return add_split("\\S+", SplitBehavior::Removed, true);
  if (type == "Metaspace") {
    EMBER_CHECK_OR_RETURN(first, NotSupported, "Metaspace after another pre-tokenizer");
    EMBER_TRY(hf_json::get_string(value, "replacement", &metaspace_, true));
    EMBER_CHECK_OR_RETURN(!metaspace_.empty(), InvalidExternalData,
                          "Metaspace with no replacement");
    std::string scheme = "always";
    bool legacy_prefix = true;
    EMBER_TRY(hf_json::get_bool(value, "add_prefix_space", &legacy_prefix));
    if (!legacy_prefix) scheme = "never";
    EMBER_TRY(hf_json::get_string(value, "prepend_scheme", &scheme, false));
    if (scheme == "always")
      prepend_scheme_ = 0;
    else if (scheme == "first")
      prepend_scheme_ = 1;
    else if (scheme == "never")
      prepend_scheme_ = 2;
    else
      return runtime::fail(Error::NotSupported, "prepend_scheme '%s'", scheme.c_str());
    bool split = true;
    EMBER_TRY(hf_json::get_bool(value, "split", &split));
    return split ? add_split(quote_literal(metaspace_), SplitBehavior::MergedWithNext, false)
                 : Error::Ok;
  }
  return runtime::fail(Error::NotSupported, "pre_tokenizer type '%s' is not supported",
                       type.c_str());
}

void HfPreTokenizer::rewrite(std::string* segment, bool first) const {
  if (add_prefix_space_ && !segment->empty() && (*segment)[0] != ' ') segment->insert(0, " ");
  if (!metaspace_.empty()) {
    replace_all(segment, " ", metaspace_);
    const bool prepend = prepend_scheme_ == 0 || (prepend_scheme_ == 1 && first);
    if (prepend && segment->compare(0, metaspace_.size(), metaspace_) != 0) {
      segment->insert(0, metaspace_);
    }
  }
}

Error HfPreTokenizer::apply(const Step& step, const std::string& text, const Ranges& in,
                            Ranges* out) const {
  Ranges hits;
  for (const auto& range : in) {
    const size_t begin = range.first, end = range.second;  // plain names: lambdas capture them
    hits.clear();
    EMBER_TRY(step.regex->find_all(std::string_view(text).substr(begin, end - begin), &hits));
    // Walk the piece as alternating gaps and matches; `is_match` after invert.
    size_t pos = 0, pending_begin = 0;
    bool pending = false;  // MergedWithNext: a delimiter waiting for the next part
    auto emit = [&](size_t b, size_t e, bool is_match) {
      if (b == e) return;
      b += begin;
      e += begin;
      switch (step.behavior) {
        case SplitBehavior::Isolated:
          out->emplace_back(b, e);
          break;
        case SplitBehavior::Removed:
          if (!is_match) out->emplace_back(b, e);
          break;
        case SplitBehavior::MergedWithPrevious:
          if (is_match && !out->empty() && out->back().second == b && out->size() > 0 && pos > 0) {
            out->back().second = e;
          } else {
            out->emplace_back(b, e);
          }
          break;
        case SplitBehavior::MergedWithNext:
          if (is_match) {
            if (!pending) pending_begin = b;
            pending = true;
          } else {
            out->emplace_back(pending ? pending_begin : b, e);
            pending = false;
          }
          break;
      }
    };
    for (auto [b, e] : hits) {
      emit(pos, b, step.invert);
      emit(b, e, !step.invert);
      pos = e;
    }
    emit(pos, end - begin, step.invert);
    if (pending) out->emplace_back(pending_begin, end);
  }
  return Error::Ok;
}

Error HfPreTokenizer::split(const std::string& segment, Ranges* words) const {
  if (segment.empty()) return Error::Ok;
  Ranges current{{0, segment.size()}}, next;
  for (const Step& step : steps_) {
    next.clear();
    EMBER_TRY(apply(step, segment, current, &next));
    current.swap(next);
  }
  words->insert(words->end(), current.begin(), current.end());
  return Error::Ok;
}

}  // namespace ember::llm
