#include "llm/tokenizer/added_tokens.h"

#include <algorithm>

namespace ember::llm {
namespace {

bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

bool is_word_byte(char c) {
  const auto b = static_cast<unsigned char>(c);
  return b >= 0x80 || (b >= '0' && b <= '9') || (b >= 'a' && b <= 'z') || (b >= 'A' && b <= 'Z') ||
         b == '_';
}

}  // namespace

void AddedTokens::add(AddedToken token) {
  if (token.content.empty()) return;
  const auto first = static_cast<unsigned char>(token.content[0]);
  tokens_.push_back(std::move(token));
  auto& list = by_first_byte_[first];
  list.push_back(tokens_.size() - 1);
  // Longest first, so the first match found at a position is the longest.
  std::stable_sort(list.begin(), list.end(), [&](size_t a, size_t b) {
    return tokens_[a].content.size() > tokens_[b].content.size();
  });
}

bool AddedTokens::match_at(const AddedToken& token, std::string_view text, size_t pos) const {
  if (text.compare(pos, token.content.size(), token.content) != 0) return false;
  if (token.single_word) {
    const size_t end = pos + token.content.size();
    if (pos > 0 && is_word_byte(text[pos - 1]) && is_word_byte(token.content.front())) return false;
    if (end < text.size() && is_word_byte(text[end]) && is_word_byte(token.content.back()))
      return false;
  }
  return true;
}

void AddedTokens::split(std::string_view text, std::vector<TextSegment>* out) const {
  if (tokens_.empty()) {
    if (!text.empty()) out->push_back(TextSegment{text, -1});
    return;
  }
  size_t plain_begin = 0;
  for (size_t pos = 0; pos < text.size();) {
    const auto& candidates = by_first_byte_[static_cast<unsigned char>(text[pos])];
    const AddedToken* hit = nullptr;
    for (size_t index : candidates) {
      if (match_at(tokens_[index], text, pos)) {
        hit = &tokens_[index];
        break;
      }
    }
    if (hit == nullptr) {
      ++pos;
      continue;
    }
    size_t plain_end = pos, next = pos + hit->content.size();
    if (hit->lstrip) {
      while (plain_end > plain_begin && is_space(text[plain_end - 1])) --plain_end;
    }
    if (hit->rstrip) {
      while (next < text.size() && is_space(text[next])) ++next;
    }
    if (plain_end > plain_begin) {
      out->push_back(TextSegment{text.substr(plain_begin, plain_end - plain_begin), -1});
    }
    out->push_back(TextSegment{std::string_view(), hit->id});
    pos = plain_begin = next;
  }
  if (plain_begin < text.size()) out->push_back(TextSegment{text.substr(plain_begin), -1});
}

}  // namespace ember::llm
