#include "llm/tokenizer/bpe_model.h"

#include <queue>

#include "llm/tokenizer/utf8.h"

namespace ember::llm {
namespace {

constexpr size_t kMaxCachedWords = 1 << 16;
constexpr size_t kMaxCachedWordBytes = 256;

uint64_t pair_key(int32_t left, int32_t right) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(left)) << 32) | static_cast<uint32_t>(right);
}

struct Candidate {
  uint32_t rank;
  uint32_t pos;  // index of the left symbol
  int32_t left, right, merged;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};

}  // namespace

void BpeModel::add_merge(int32_t left, int32_t right, uint32_t rank, int32_t merged) {
  auto [it, inserted] = merges_.emplace(pair_key(left, right), BpeMerge{rank, merged});
  if (!inserted && rank < it->second.rank) it->second = BpeMerge{rank, merged};
}

void BpeModel::initial_symbols(std::string_view word, std::vector<int32_t>* symbols) const {
  if (alphabet == BpeAlphabet::Bytes) {
    for (char c : word) {
      const int32_t id = byte_ids[static_cast<uint8_t>(c)];
      if (id >= 0) symbols->push_back(id);
    }
    return;
  }
  bool last_unknown = false;
  for (size_t i = 0; i < word.size();) {
    size_t n = valid_utf8_length(word, i);
    if (n == 0) n = 1;
    auto it = vocab.find(std::string(word.substr(i, n)));
    if (it != vocab.end()) {
      symbols->push_back(it->second);
      last_unknown = false;
    } else if (byte_fallback && fallback_ids[static_cast<uint8_t>(word[i])] >= 0) {
      for (size_t k = 0; k < n; ++k)
        symbols->push_back(fallback_ids[static_cast<uint8_t>(word[i + k])]);
      last_unknown = false;
    } else if (unk_id >= 0) {
      if (!(fuse_unk && last_unknown)) symbols->push_back(unk_id);
      last_unknown = true;
    }
    i += n;
  }
}

void BpeModel::merge(std::vector<int32_t>* symbols) const {
  std::vector<int32_t>& ids = *symbols;
  const size_t n = ids.size();
  if (n < 2) return;
  std::vector<int32_t> next(n), prev(n);
  for (size_t i = 0; i < n; ++i) {
    next[i] = static_cast<int32_t>(i + 1);
    prev[i] = static_cast<int32_t>(i) - 1;
  }
  next[n - 1] = -1;
  std::priority_queue<Candidate, std::vector<Candidate>, std::greater<Candidate>> heap;
  auto push = [&](int32_t pos) {
    if (pos < 0 || next[pos] < 0) return;
    auto it = merges_.find(pair_key(ids[pos], ids[next[pos]]));
    if (it == merges_.end()) return;
    heap.push(Candidate{it->second.rank, static_cast<uint32_t>(pos), ids[pos], ids[next[pos]],
                        it->second.merged_id});
  };
  for (size_t i = 0; i + 1 < n; ++i) push(static_cast<int32_t>(i));
  while (!heap.empty()) {
    const Candidate c = heap.top();
    heap.pop();
    const int32_t pos = static_cast<int32_t>(c.pos);
    const int32_t right = next[pos];
    // Stale: a symbol of the pair was merged away or changed since the candidate was pushed.
    if (ids[pos] != c.left || right < 0 || ids[right] != c.right) continue;
    ids[pos] = c.merged;
    ids[right] = -1;
    next[pos] = next[right];
    if (next[right] >= 0) prev[next[right]] = pos;
    push(prev[pos]);
    push(pos);
  }
  size_t out = 0;
  for (int32_t i = 0; i >= 0; i = next[i]) ids[out++] = ids[i];
  ids.resize(out);
}

void BpeModel::encode_word(std::string_view word, std::vector<int32_t>* out) const {
  if (word.empty()) return;
  if (ignore_merges) {
    auto it = vocab.find(std::string(word));
    if (it != vocab.end()) {
      out->push_back(it->second);
      return;
    }
  }
  const bool cacheable = word.size() <= kMaxCachedWordBytes;
  std::string key;
  if (cacheable) {
    key.assign(word);
    std::lock_guard<std::mutex> lock(cache_mutex_);
    auto it = cache_.find(key);
    if (it != cache_.end()) {
      out->insert(out->end(), it->second.begin(), it->second.end());
      return;
    }
  }
  std::vector<int32_t> symbols;
  symbols.reserve(word.size());
  initial_symbols(word, &symbols);
  merge(&symbols);
  out->insert(out->end(), symbols.begin(), symbols.end());
  if (cacheable) {
    std::lock_guard<std::mutex> lock(cache_mutex_);
    if (cache_.size() >= kMaxCachedWords) cache_.clear();
    cache_.emplace(std::move(key), std::move(symbols));
  }
}

}  // namespace ember::llm
