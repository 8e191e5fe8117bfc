#include "llm/tokenizer/hf_normalizer.h"

#include <unicode/normalizer2.h>
#include <unicode/unistr.h>

#include "llm/tokenizer/hf_json.h"

namespace ember::llm {
namespace {

using hf_json::Json;
using runtime::Error;

constexpr int kMaxDepth = 8;

const icu::Normalizer2* unicode_normalizer(int form) {
  UErrorCode status = U_ZERO_ERROR;
  const icu::Normalizer2* n = nullptr;
  switch (form) {
    case 0:
      n = icu::Normalizer2::getNFCInstance(status);
      break;
    case 1:
      n = icu::Normalizer2::getNFDInstance(status);
      break;
    case 2:
      n = icu::Normalizer2::getNFKCInstance(status);
      break;
    default:
      n = icu::Normalizer2::getNFKDInstance(status);
      break;
  }
  return U_SUCCESS(status) ? n : nullptr;
}

}  // namespace

void replace_all(std::string* text, const std::string& pattern, const std::string& content) {
  if (pattern.empty() || text->find(pattern) == std::string::npos) return;
  std::string out;
  out.reserve(text->size());
  size_t pos = 0;
  for (size_t hit; (hit = text->find(pattern, pos)) != std::string::npos;
       pos = hit + pattern.size()) {
    out.append(*text, pos, hit - pos);
    out.append(content);
  }
  out.append(*text, pos, std::string::npos);
  *text = std::move(out);
}

runtime::Result<std::unique_ptr<HfNormalizer>> HfNormalizer::parse(const Json& value) {
  auto normalizer = std::make_unique<HfNormalizer>();
  if (!value.is_null()) EMBER_TRY_CONTEXT(normalizer->add(value, 0), "normalizer");
  return normalizer;
}

Error HfNormalizer::add(const Json& value, int depth) {
  EMBER_CHECK_OR_RETURN(depth < kMaxDepth, InvalidExternalData, "nested deeper than %d", kMaxDepth);
  std::string type;
  EMBER_TRY(hf_json::get_type(value, "normalizer", &type));
  if (type == "Sequence") {
    const Json* list = hf_json::member(value, "normalizers");
    EMBER_CHECK_OR_RETURN(list != nullptr && list->is_array(), InvalidExternalData,
                          "Sequence without a 'normalizers' list");
    for (const Json& item : *list) EMBER_TRY(add(item, depth + 1));
    return Error::Ok;
  }
  static const char* const kForms[] = {"NFC", "NFD", "NFKC", "NFKD"};
  for (int form = 0; form < 4; ++form) {
    if (type == kForms[form]) {
      EMBER_CHECK_OR_RETURN(unicode_normalizer(form) != nullptr, NotSupported,
                            "ICU has no %s instance", kForms[form]);
      steps_.push_back(Step{Kind::Unicode, form, "", "", nullptr});
      return Error::Ok;
    }
  }
  Step step{Kind::Prepend, 0, "", "", nullptr};
  if (type == "Prepend") {
    EMBER_TRY(hf_json::get_string(value, "prepend", &step.text, true));
  } else if (type == "Replace") {
    const Json* pattern = hf_json::member(value, "pattern");
    EMBER_CHECK_OR_RETURN(pattern != nullptr && pattern->is_object(), InvalidExternalData,
                          "Replace without a 'pattern' object");
    EMBER_TRY(hf_json::get_string(value, "content", &step.content, true));
    if (hf_json::member(*pattern, "Regex") != nullptr) {
      EMBER_TRY(hf_json::get_string(*pattern, "Regex", &step.text, true));
      auto regex = RegexSplitter::compile(step.text);
      if (!regex.ok()) return regex.error();
      step.regex = std::make_unique<RegexSplitter>(std::move(regex.get()));
      step.kind = Kind::ReplaceRegex;
    } else {
      EMBER_TRY(hf_json::get_string(*pattern, "String", &step.text, true));
      EMBER_CHECK_OR_RETURN(!step.text.empty(), InvalidExternalData, "Replace of an empty string");
      step.kind = Kind::ReplaceString;
    }
  } else {
    return runtime::fail(Error::NotSupported, "normalizer type '%s' is not supported",
                         type.c_str());
  }
  steps_.push_back(std::move(step));
  return Error::Ok;
}

Error HfNormalizer::apply(std::string* text) const {
  for (const Step& step : steps_) {
    switch (step.kind) {
      case Kind::Unicode: {
        const icu::Normalizer2* n = unicode_normalizer(step.unicode_form);
        UErrorCode status = U_ZERO_ERROR;
        icu::UnicodeString in = icu::UnicodeString::fromUTF8(*text);
        if (n->isNormalized(in, status) && U_SUCCESS(status)) break;
        status = U_ZERO_ERROR;
        icu::UnicodeString out = n->normalize(in, status);
        if (U_SUCCESS(status)) {
          text->clear();
          out.toUTF8String(*text);
        }
        break;
      }
      case Kind::Prepend:
        if (!text->empty()) text->insert(0, step.text);
        break;
      case Kind::ReplaceString:
        replace_all(text, step.text, step.content);
        break;
      case Kind::ReplaceRegex: {
        std::vector<std::pair<size_t, size_t>> hits;
        EMBER_TRY(step.regex->find_all(*text, &hits));
        if (hits.empty()) break;
        std::string out;
        size_t pos = 0;
        for (auto [b, e] : hits) {
          out.append(*text, pos, b - pos);
          out.append(step.content);
          pos = e;
        }
        out.append(*text, pos, std::string::npos);
        *text = std::move(out);
        break;
      }
    }
  }
  return Error::Ok;
}

}  // namespace ember::llm
