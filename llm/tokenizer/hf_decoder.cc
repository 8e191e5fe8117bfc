#include "llm/tokenizer/hf_decoder.h"

#include "llm/tokenizer/byte_level.h"
#include "llm/tokenizer/hf_json.h"
#include "llm/tokenizer/hf_normalizer.h"
#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

using hf_json::Json;
using runtime::Error;

constexpr int kMaxDepth = 8;

// "<0x41>" -> 0x41; -1 if `token` is not a byte token.
int byte_token_value(const std::string& token) {
  if (token.size() != 6 || token.compare(0, 3, "<0x") != 0 || token[5] != '>') return -1;
  int value = 0;
  for (int i = 3; i < 5; ++i) {
    const char c = token[i];
    int digit = (c >= '0' && c <= '9') ? c - '0' : (c >= 'A' && c <= 'F') ? c - 'A' + 10 : -1;
    if (digit < 0) return -1;
    value = value * 16 + digit;
  }
  return value;
}

void byte_fallback(std::vector<std::string>* tokens) {
  std::vector<std::string> out;
  std::string bytes;
  size_t byte_count = 0;
  auto flush = [&]() {
    if (byte_count == 0) return;
    if (is_valid_utf8(bytes)) {
      out.push_back(bytes);
    } else {
      for (size_t i = 0; i < byte_count; ++i) out.emplace_back("\xEF\xBF\xBD");
    }
    bytes.clear();
    byte_count = 0;
  };
  for (std::string& token : *tokens) {
    const int value = byte_token_value(token);
    if (value >= 0) {
      bytes.push_back(static_cast<char>(value));
      ++byte_count;
    } else {
      flush();
      out.push_back(std::move(token));
    }
  }
  flush();
  *tokens = std::move(out);
}

}  // namespace

runtime::Result<std::unique_ptr<HfDecoder>> HfDecoder::parse(const Json& value) {
  auto decoder = std::make_unique<HfDecoder>();
  if (!value.is_null()) EMBER_TRY_CONTEXT(decoder->add(value, 0), "decoder");
  return decoder;
}

Error HfDecoder::add(const Json& value, int depth) {
  EMBER_CHECK_OR_RETURN(depth < kMaxDepth, InvalidExternalData, "nested deeper than %d", kMaxDepth);
  std::string type;
  EMBER_TRY(hf_json::get_type(value, "decoder", &type));
  Step step{Kind::Fuse, "", "", 0, 0, true};
  if (type == "Sequence") {
    const Json* list = hf_json::member(value, "decoders");
    EMBER_CHECK_OR_RETURN(list != nullptr && list->is_array(), InvalidExternalData,
                          "Sequence without a 'decoders' list");
    for (const Json& item : *list) EMBER_TRY(add(item, depth + 1));
    return Error::Ok;
  } else if (type == "ByteLevel") {
    step.kind = Kind::ByteLevel;
  } else if (type == "Metaspace") {
    step.kind = Kind::Metaspace;
    EMBER_TRY(hf_json::get_string(value, "replacement", &step.a, true));
    std::string scheme = "always";
    bool legacy_prefix = true;
    EMBER_TRY(hf_json::get_bool(value, "add_prefix_space", &legacy_prefix));
    if (!legacy_prefix) scheme = "never";
    EMBER_TRY(hf_json::get_string(value, "prepend_scheme", &scheme, false));
    step.prepend = scheme != "never";
  } else if (type == "Replace") {
    step.kind = Kind::Replace;
    const Json* pattern = hf_json::member(value, "pattern");
    EMBER_CHECK_OR_RETURN(pattern != nullptr && hf_json::member(*pattern, "String") != nullptr,
                          NotSupported, "Replace decoder needs a String pattern");
    EMBER_TRY(hf_json::get_string(*pattern, "String", &step.a, true));
    EMBER_TRY(hf_json::get_string(value, "content", &step.b, true));
  } else if (type == "ByteFallback") {
    step.kind = Kind::ByteFallback;
  } else if (type == "Fuse") {
    step.kind = Kind::Fuse;
  } else if (type == "Strip") {
    step.kind = Kind::Strip;
    int64_t start = 0, stop = 0;
    EMBER_TRY(hf_json::get_string(value, "content", &step.a, true));
    EMBER_TRY(hf_json::get_int(value, "start", &start, false));
    EMBER_TRY(hf_json::get_int(value, "stop", &stop, false));
    EMBER_CHECK_OR_RETURN(start >= 0 && stop >= 0 && start < 1024 && stop < 1024,
                          InvalidExternalData, "Strip counts out of range");
    step.start = static_cast<int>(start);
    step.stop = static_cast<int>(stop);
  } else {
    return runtime::fail(Error::NotSupported, "decoder type '%s' is not supported", type.c_str());
  }
  steps_.push_back(std::move(step));
  return Error::Ok;
}

void HfDecoder::apply(const Step& step, std::vector<std::string>* tokens) {
  switch (step.kind) {
    case Kind::ByteLevel: {
      std::string bytes;
      for (std::string& token : *tokens) {
        if (byte_level_to_bytes(token, &bytes)) token = bytes;  // else: the token's own bytes
      }
      break;
    }
    case Kind::Metaspace:
      for (size_t i = 0; i < tokens->size(); ++i) {
        std::string& token = (*tokens)[i];
        replace_all(&token, step.a, " ");
        if (i == 0 && step.prepend && !token.empty() && token[0] == ' ') token.erase(0, 1);
      }
      break;
    case Kind::Replace:
      for (std::string& token : *tokens) replace_all(&token, step.a, step.b);
      break;
    case Kind::ByteFallback:
      byte_fallback(tokens);
      break;
    case Kind::Fuse: {
      std::string all;
      for (const std::string& token : *tokens) all += token;
      tokens->assign(1, all);
      break;
    }
    case Kind::Strip:
      for (std::string& token : *tokens) {
        // Strips up to `start` leading and `stop` trailing copies of the content character.
        int n = 0;
        while (n < step.start && token.compare(0, step.a.size(), step.a) == 0 && !step.a.empty()) {
          token.erase(0, step.a.size());
          ++n;
        }
        n = 0;
        while (n < step.stop && !step.a.empty() && token.size() >= step.a.size() &&
               token.compare(token.size() - step.a.size(), step.a.size(), step.a) == 0) {
          token.erase(token.size() - step.a.size());
          ++n;
        }
      }
      break;
  }
}

std::string HfDecoder::decode(std::vector<std::string> tokens) const {
  for (const Step& step : steps_) apply(step, &tokens);
  std::string out;
  for (const std::string& token : tokens) out += token;
  return out;
}

}  // namespace ember::llm
