#include "llm/tokenizer/tiktoken_tokenizer.h"

#include "llm/tokenizer/utf8.h"
#include "runtime/core/diagnostics.h"

namespace ember::llm {

const char kCl100kSplitPattern[] =
    "'(?i:[sdmt]|ll|ve|re)|[^\\r\\n\\p{L}\\p{N}]?+\\p{L}++|\\p{N}{1,3}+| "
    "?[^\\s\\p{L}\\p{N}]++[\\r\\n]*+|\\s++$|\\s*[\\r\\n]|\\s+(?!\\S)|\\s";

namespace {

constexpr size_t kMaxFileBytes = size_t{1} << 30;
constexpr int64_t kMaxRank = (int64_t{1} << 21) - 1;
constexpr size_t kMaxTokenBytes = 1024;

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

// Standard base64 with padding; false on any other character or a bad length.
bool base64_decode(std::string_view text, std::string* out) {
  out->clear();
  if (text.empty() || text.size() % 4 != 0) return false;
  uint32_t acc = 0;
  int bits = 0;
  size_t pad = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '=') {
      if (i + 2 < text.size()) return false;
      ++pad;
      continue;
    }
    const int v = base64_value(text[i]);
    if (v < 0 || pad > 0) return false;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out->push_back(static_cast<char>((acc >> bits) & 0xFF));
    }
  }
  return !out->empty();
}

bool parse_rank(std::string_view text, int64_t* out) {
  if (text.empty() || text.size() > 9) return false;
  int64_t v = 0;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

}  // namespace

Result<std::unique_ptr<TiktokenTokenizer>> TiktokenTokenizer::load(
    const std::string& path, const std::string& pattern,
    const std::vector<std::pair<std::string, int32_t>>& special_tokens) {
  EMBER_ASSIGN_OR_RETURN(std::string text, read_text_file(path, kMaxFileBytes));
  auto tokenizer = from_text(text, pattern, special_tokens);
  if (!tokenizer.ok()) return runtime::annotate(tokenizer.error(), "%s", path.c_str());
  return std::move(tokenizer.get());
}

Result<std::unique_ptr<TiktokenTokenizer>> TiktokenTokenizer::from_text(
    std::string_view ranks, const std::string& pattern,
    const std::vector<std::pair<std::string, int32_t>>& special_tokens) {
  EMBER_ASSIGN_OR_RETURN(RegexSplitter splitter, RegexSplitter::compile(pattern));
  std::unique_ptr<TiktokenTokenizer> t(new TiktokenTokenizer(std::move(splitter)));
  EMBER_TRY(t->parse_ranks(ranks));
  for (const auto& [text, id] : special_tokens) {
    EMBER_CHECK_OR_RETURN(!text.empty() && id >= 0 && id <= kMaxRank, InvalidArgument,
                          "special token '%.64s' with id %d", text.c_str(), id);
    if (static_cast<size_t>(id) >= t->id_to_bytes_.size()) t->id_to_bytes_.resize(id + 1);
    EMBER_CHECK_OR_RETURN(t->id_to_bytes_[id].empty(), InvalidArgument,
                          "special token '%.64s' reuses id %d", text.c_str(), id);
    t->id_to_bytes_[id] = text;
    if (t->special_.size() <= static_cast<size_t>(id)) t->special_.resize(id + 1, false);
    t->special_[id] = true;
    t->specials_.add(AddedToken{id, text, true, false, false, false});
  }
  return t;
}

Error TiktokenTokenizer::parse_ranks(std::string_view ranks) {
  bpe_.alphabet = BpeAlphabet::Bytes;
  bpe_.ignore_merges = true;
  bpe_.byte_ids.fill(-1);
  std::string token;
  size_t line_number = 0;
  for (size_t pos = 0; pos < ranks.size();) {
    size_t end = ranks.find('\n', pos);
    if (end == std::string_view::npos) end = ranks.size();
    std::string_view line = ranks.substr(pos, end - pos);
    pos = end + 1;
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    const size_t space = line.find(' ');
    int64_t rank = 0;
    EMBER_CHECK_OR_RETURN(space != std::string_view::npos &&
                              base64_decode(line.substr(0, space), &token) &&
                              parse_rank(line.substr(space + 1), &rank) && rank <= kMaxRank &&
                              token.size() <= kMaxTokenBytes,
                          InvalidExternalData,
                          "tiktoken line %zu is not '<base64 token> <rank>' (rank <= %lld, token "
                          "<= %zu bytes)",
                          line_number, static_cast<long long>(kMaxRank), kMaxTokenBytes);
    EMBER_CHECK_OR_RETURN(bpe_.vocab.emplace(token, static_cast<int32_t>(rank)).second,
                          InvalidExternalData, "tiktoken line %zu repeats a token", line_number);
    if (static_cast<size_t>(rank) >= id_to_bytes_.size()) id_to_bytes_.resize(rank + 1);
    EMBER_CHECK_OR_RETURN(id_to_bytes_[rank].empty(), InvalidExternalData,
                          "tiktoken line %zu repeats rank %lld", line_number,
                          static_cast<long long>(rank));
    id_to_bytes_[rank] = token;
    if (token.size() == 1)
      bpe_.byte_ids[static_cast<uint8_t>(token[0])] = static_cast<int32_t>(rank);
  }
  // Every split of a token into two tokens is a merge ranked by the whole token.
  for (const auto& [bytes, id] : bpe_.vocab) {
    for (size_t cut = 1; cut < bytes.size(); ++cut) {
      auto left = bpe_.vocab.find(bytes.substr(0, cut));
      if (left == bpe_.vocab.end()) continue;
      auto right = bpe_.vocab.find(bytes.substr(cut));
      if (right == bpe_.vocab.end()) continue;
      bpe_.add_merge(left->second, right->second, static_cast<uint32_t>(id), id);
    }
  }
  return Error::Ok;
}

Result<std::vector<int32_t>> TiktokenTokenizer::encode(std::string_view text,
                                                       bool add_special_tokens) const {
  const std::string clean = sanitize_utf8(text);
  std::vector<TextSegment> segments;
  specials_.split(clean, &segments);
  std::vector<int32_t> ids;
  std::vector<std::pair<size_t, size_t>> words;
  for (const TextSegment& segment : segments) {
    if (segment.token >= 0) {
      ids.push_back(segment.token);
      continue;
    }
    words.clear();
    EMBER_TRY(splitter_.find_all(segment.text, &words));
    for (auto [b, e] : words) bpe_.encode_word(segment.text.substr(b, e - b), &ids);
  }
  return ids;
}

Result<std::string> TiktokenTokenizer::decode(const std::vector<int32_t>& ids,
                                              bool skip_special_tokens) const {
  std::string bytes;
  for (int32_t id : ids) {
    EMBER_CHECK_OR_RETURN(
        id >= 0 && static_cast<size_t>(id) < id_to_bytes_.size() && !id_to_bytes_[id].empty(),
        InvalidArgument, "decode: id %d is not in the vocabulary", id);
    if (skip_special_tokens && is_special(id)) continue;
    bytes += id_to_bytes_[id];
  }
  return sanitize_utf8(bytes);
}

std::optional<int32_t> TiktokenTokenizer::token_id(std::string_view token) const {
  auto it = bpe_.vocab.find(std::string(token));
  if (it != bpe_.vocab.end()) return it->second;
  for (const AddedToken& t : specials_.tokens()) {
    if (t.content == token) return t.id;
  }
  return std::nullopt;
}

bool TiktokenTokenizer::is_special(int32_t id) const {
  return id >= 0 && static_cast<size_t>(id) < special_.size() && special_[id];
}

}  // namespace ember::llm
