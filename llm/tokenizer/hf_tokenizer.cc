#include "llm/tokenizer/hf_tokenizer.h"

#include "llm/tokenizer/byte_level.h"
#include "llm/tokenizer/hf_json.h"
#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

using hf_json::Json;

constexpr int64_t kMaxId = (int64_t{1} << 21) - 1;  // 2 M ids (Gemma has 262,144)
constexpr size_t kMaxTokenizerBytes = size_t{1} << 30;
constexpr int kMaxDepth = 8;

// "<0x41>" for byte 0x41 (the byte-fallback token of SentencePiece-style vocabularies).
std::string byte_token(int b) {
  static const char kHex[] = "0123456789ABCDEF";
  return std::string("<0x") + kHex[b >> 4] + kHex[b & 15] + ">";
}

Error check_id(int64_t id, const std::string& token) {
  EMBER_CHECK_OR_RETURN(id >= 0 && id <= kMaxId, InvalidExternalData,
                        "tokenizer.json: token '%.64s' has id %lld, outside [0, %lld]",
                        token.c_str(), static_cast<long long>(id), static_cast<long long>(kMaxId));
  return Error::Ok;
}

}  // namespace

Result<std::unique_ptr<HfTokenizer>> HfTokenizer::load(const std::string& path) {
  EMBER_ASSIGN_OR_RETURN(std::string text, read_text_file(path, kMaxTokenizerBytes));
  auto tokenizer = from_json(text);
  if (!tokenizer.ok()) return runtime::annotate(tokenizer.error(), "%s", path.c_str());
  return std::move(tokenizer.get());
}

Result<std::unique_ptr<HfTokenizer>> HfTokenizer::from_json(std::string_view json_text) {
  const Json root = Json::parse(json_text.begin(), json_text.end(), nullptr, false);
  EMBER_CHECK_OR_RETURN(!root.is_discarded() && root.is_object(), InvalidExternalData,
                        "tokenizer.json: not a JSON object");
  std::unique_ptr<HfTokenizer> t(new HfTokenizer());
  const Json null_value;
  auto field = [&](const char* key) -> const Json& {
    const Json* v = hf_json::member(root, key);
    return v != nullptr ? *v : null_value;
  };
  EMBER_ASSIGN_OR_RETURN(t->normalizer_, HfNormalizer::parse(field("normalizer")));
  EMBER_ASSIGN_OR_RETURN(t->pre_tokenizer_, HfPreTokenizer::parse(field("pre_tokenizer")));
  EMBER_ASSIGN_OR_RETURN(t->decoder_, HfDecoder::parse(field("decoder")));
  EMBER_CHECK_OR_RETURN(field("model").is_object(), InvalidExternalData,
                        "tokenizer.json: no 'model' object");
  EMBER_TRY_CONTEXT(t->parse_model(field("model")), "model");
  EMBER_TRY_CONTEXT(t->parse_added_tokens(field("added_tokens")), "added_tokens");
  if (!field("post_processor").is_null()) {
    EMBER_TRY_CONTEXT(t->parse_post_processor(field("post_processor"), 0), "post_processor");
  }
  return t;
}

Error HfTokenizer::parse_model(const Json& model) {
  std::string type = "BPE";
  EMBER_TRY(hf_json::get_string(model, "type", &type, false));
  EMBER_CHECK_OR_RETURN(type == "BPE", NotSupported, "model type '%s' is not supported (BPE is)",
                        type.c_str());
  std::string prefix, suffix;
  EMBER_TRY(hf_json::get_string(model, "continuing_subword_prefix", &prefix, false));
  EMBER_TRY(hf_json::get_string(model, "end_of_word_suffix", &suffix, false));
  EMBER_CHECK_OR_RETURN(prefix.empty() && suffix.empty(), NotSupported,
                        "continuing_subword_prefix / end_of_word_suffix are not supported");
  const Json* dropout = hf_json::member(model, "dropout");
  EMBER_CHECK_OR_RETURN(dropout == nullptr || (dropout->is_number() && dropout->get<double>() == 0),
                        NotSupported, "BPE dropout is not supported");
  const Json* vocab = hf_json::member(model, "vocab");
  EMBER_CHECK_OR_RETURN(vocab != nullptr && vocab->is_object(), InvalidExternalData,
                        "no 'vocab' object");
  const bool byte_level = pre_tokenizer_->byte_level();
  bpe_.alphabet = byte_level ? BpeAlphabet::Bytes : BpeAlphabet::Characters;
  std::string raw;
  for (auto it = vocab->begin(); it != vocab->end(); ++it) {
    EMBER_CHECK_OR_RETURN(it.value().is_number_integer(), InvalidExternalData,
                          "vocab entry '%.64s' is not an integer", it.key().c_str());
    const int64_t id = it.value().get<int64_t>();
    EMBER_TRY(check_id(id, it.key()));
    token_to_id_[it.key()] = static_cast<int32_t>(id);
    if (static_cast<size_t>(id) >= id_to_token_.size()) id_to_token_.resize(id + 1);
    id_to_token_[id] = it.key();
    if (!byte_level) {
      bpe_.vocab[it.key()] = static_cast<int32_t>(id);
    } else if (byte_level_to_bytes(it.key(), &raw)) {
      bpe_.vocab[raw] = static_cast<int32_t>(id);
    }
  }
  for (int b = 0; b < 256; ++b) {
    const std::string key = byte_level ? std::string(1, static_cast<char>(b)) : byte_token(b);
    auto it = bpe_.vocab.find(key);
    (byte_level ? bpe_.byte_ids : bpe_.fallback_ids)[b] = it == bpe_.vocab.end() ? -1 : it->second;
  }
  if (byte_level) bpe_.fallback_ids.fill(-1);
  EMBER_TRY(hf_json::get_bool(model, "byte_fallback", &bpe_.byte_fallback));
  EMBER_TRY(hf_json::get_bool(model, "fuse_unk", &bpe_.fuse_unk));
  EMBER_TRY(hf_json::get_bool(model, "ignore_merges", &bpe_.ignore_merges));
  std::string unk;
  EMBER_TRY(hf_json::get_string(model, "unk_token", &unk, false));
  if (!unk.empty()) {
    auto it = token_to_id_.find(unk);
    EMBER_CHECK_OR_RETURN(it != token_to_id_.end(), InvalidExternalData,
                          "unk_token '%.64s' is not in the vocabulary", unk.c_str());
    bpe_.unk_id = it->second;
  }
  const Json* merges = hf_json::member(model, "merges");
  return merges == nullptr ? Error::Ok : parse_merges(*merges);
}

Error HfTokenizer::parse_merges(const Json& merges) {
  EMBER_CHECK_OR_RETURN(merges.is_array(), InvalidExternalData, "'merges' is not a list");
  uint32_t rank = 0;
  std::string left, right;
  for (const Json& merge : merges) {
    if (merge.is_string()) {
      const std::string& text = merge.get_ref<const std::string&>();
      const size_t space = text.find(' ', 1);
      EMBER_CHECK_OR_RETURN(
          space != std::string::npos && text.find(' ', space + 1) == std::string::npos,
          InvalidExternalData, "merge %u '%.64s' is not two tokens", rank, text.c_str());
      left = text.substr(0, space);
      right = text.substr(space + 1);
    } else {
      EMBER_CHECK_OR_RETURN(
          merge.is_array() && merge.size() == 2 && merge[0].is_string() && merge[1].is_string(),
          InvalidExternalData, "merge %u is not a pair of strings", rank);
      left = merge[0].get<std::string>();
      right = merge[1].get<std::string>();
    }
    auto l = token_to_id_.find(left), r = token_to_id_.find(right),
         m = token_to_id_.find(left + right);
    EMBER_CHECK_OR_RETURN(
        l != token_to_id_.end() && r != token_to_id_.end() && m != token_to_id_.end(),
        InvalidExternalData, "merge %u ('%.32s' '%.32s') names a missing token", rank, left.c_str(),
        right.c_str());
    bpe_.add_merge(l->second, r->second, rank++, m->second);
  }
  return Error::Ok;
}

Error HfTokenizer::parse_added_tokens(const Json& list) {
  if (list.is_null()) return Error::Ok;
  EMBER_CHECK_OR_RETURN(list.is_array(), InvalidExternalData, "not a list");
  for (const Json& item : list) {
    AddedToken token;
    int64_t id = -1;
    EMBER_TRY(hf_json::get_int(item, "id", &id, true));
    EMBER_TRY(hf_json::get_string(item, "content", &token.content, true));
    EMBER_TRY(check_id(id, token.content));
    EMBER_CHECK_OR_RETURN(!token.content.empty(), InvalidExternalData, "token %lld is empty",
                          static_cast<long long>(id));
    EMBER_TRY(hf_json::get_bool(item, "special", &token.special));
    EMBER_TRY(hf_json::get_bool(item, "lstrip", &token.lstrip));
    EMBER_TRY(hf_json::get_bool(item, "rstrip", &token.rstrip));
    EMBER_TRY(hf_json::get_bool(item, "single_word", &token.single_word));
    token.id = static_cast<int32_t>(id);
    if (static_cast<size_t>(id) >= id_to_token_.size()) id_to_token_.resize(id + 1);
    id_to_token_[id] = token.content;
    token_to_id_[token.content] = token.id;
    if (special_.size() <= static_cast<size_t>(id)) special_.resize(id + 1, false);
    special_[id] = token.special;
    added_.add(std::move(token));
  }
  return Error::Ok;
}

Error HfTokenizer::parse_post_processor(const Json& value, int depth) {
  EMBER_CHECK_OR_RETURN(depth < kMaxDepth, InvalidExternalData, "nested deeper than %d", kMaxDepth);
  std::string type;
  EMBER_TRY(hf_json::get_type(value, "post_processor", &type));
  if (type == "ByteLevel") return Error::Ok;  // offsets only
  if (type == "Sequence") {
    const Json* list = hf_json::member(value, "processors");
    EMBER_CHECK_OR_RETURN(list != nullptr && list->is_array(), InvalidExternalData,
                          "Sequence without a 'processors' list");
    for (const Json& item : *list) EMBER_TRY(parse_post_processor(item, depth + 1));
    return Error::Ok;
  }
  EMBER_CHECK_OR_RETURN(type == "TemplateProcessing", NotSupported,
                        "post_processor type '%s' is not supported", type.c_str());
  const Json* single = hf_json::member(value, "single");
  const Json* specials = hf_json::member(value, "special_tokens");
  EMBER_CHECK_OR_RETURN(single != nullptr && single->is_array(), InvalidExternalData,
                        "TemplateProcessing without a 'single' list");
  bool seen_sequence = false;
  for (const Json& item : *single) {
    if (hf_json::member(item, "Sequence") != nullptr) {
      seen_sequence = true;
      continue;
    }
    const Json* special = hf_json::member(item, "SpecialToken");
    EMBER_CHECK_OR_RETURN(special != nullptr, InvalidExternalData,
                          "template item is neither Sequence nor SpecialToken");
    std::string name;
    EMBER_TRY(hf_json::get_string(*special, "id", &name, true));
    const Json* entry = specials == nullptr ? nullptr : hf_json::member(*specials, name.c_str());
    const Json* ids = entry == nullptr ? nullptr : hf_json::member(*entry, "ids");
    EMBER_CHECK_OR_RETURN(ids != nullptr && ids->is_array(), InvalidExternalData,
                          "template token '%.64s' has no ids", name.c_str());
    for (const Json& id : *ids) {
      EMBER_CHECK_OR_RETURN(id.is_number_integer(), InvalidExternalData, "id is not an integer");
      EMBER_TRY(check_id(id.get<int64_t>(), name));
      (seen_sequence ? suffix_ids_ : prefix_ids_)
          .push_back(static_cast<int32_t>(id.get<int64_t>()));
    }
  }
  return Error::Ok;
}

Error HfTokenizer::encode_segment(std::string segment, bool first,
                                  std::vector<int32_t>* ids) const {
  EMBER_TRY(normalizer_->apply(&segment));
  pre_tokenizer_->rewrite(&segment, first);
  std::vector<std::pair<size_t, size_t>> words;
  EMBER_TRY(pre_tokenizer_->split(segment, &words));
  const std::string_view view(segment);
  for (auto [begin, end] : words) bpe_.encode_word(view.substr(begin, end - begin), ids);
  return Error::Ok;
}

Result<std::vector<int32_t>> HfTokenizer::encode(std::string_view text,
                                                 bool add_special_tokens) const {
  const std::string clean = sanitize_utf8(text);
  std::vector<TextSegment> segments;
  added_.split(clean, &segments);
  std::vector<int32_t> ids;
  if (add_special_tokens) ids = prefix_ids_;
  for (size_t i = 0; i < segments.size(); ++i) {
    if (segments[i].token >= 0) {
      ids.push_back(segments[i].token);
    } else {
      EMBER_TRY(encode_segment(std::string(segments[i].text), i == 0, &ids));
    }
  }
  if (add_special_tokens) ids.insert(ids.end(), suffix_ids_.begin(), suffix_ids_.end());
  return ids;
}

Result<std::string> HfTokenizer::decode(const std::vector<int32_t>& ids,
                                        bool skip_special_tokens) const {
  std::vector<std::string> tokens;
  tokens.reserve(ids.size());
  for (int32_t id : ids) {
    EMBER_CHECK_OR_RETURN(
        id >= 0 && static_cast<size_t>(id) < id_to_token_.size() && !id_to_token_[id].empty(),
        InvalidArgument, "decode: id %d is not in the vocabulary (size %zu)", id,
        id_to_token_.size());
    if (skip_special_tokens && is_special(id)) continue;
    tokens.push_back(id_to_token_[id]);
  }
  return sanitize_utf8(decoder_->decode(std::move(tokens)));
}

std::optional<int32_t> HfTokenizer::token_id(std::string_view token) const {
  auto it = token_to_id_.find(std::string(token));
  if (it == token_to_id_.end()) return std::nullopt;
  return it->second;
}

bool HfTokenizer::is_special(int32_t id) const {
  return id >= 0 && static_cast<size_t>(id) < special_.size() && special_[id];
}

}  // namespace ember::llm
