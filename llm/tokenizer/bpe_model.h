// Byte-pair encoding over token ids: the merge step every BPE tokenizer here shares (Hugging Face
// tokenizer.json BPE, tiktoken ranks). A word (one pre-tokenized piece) starts as one symbol per
// byte or per character; the adjacent pair with the lowest merge rank is merged (the leftmost of
// equal ranks) until no pair has a merge. Words are cached (bounded) since text repeats them.
#pragma once

#include <array>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace ember::llm {

// How a word's first symbols are found.
enum class BpeAlphabet {
  Bytes,       // one symbol per byte: byte_ids[b] (byte-level BPE, tiktoken)
  Characters,  // one symbol per UTF-8 character looked up in the vocabulary, then
               // "<0xXX>" byte tokens (byte_fallback) or the unknown token
};

struct BpeMerge {
  uint32_t rank;
  int32_t merged_id;
};

class BpeModel {
 public:
  BpeModel() = default;
  BpeModel(const BpeModel&) = delete;
  BpeModel& operator=(const BpeModel&) = delete;

  BpeAlphabet alphabet = BpeAlphabet::Bytes;
  std::array<int32_t, 256> byte_ids{};  // Bytes: id of each single byte, -1 if none
  // Characters: the token text (UTF-8) to id; also the whole-word lookup of ignore_merges.
  std::unordered_map<std::string, int32_t> vocab;
  bool ignore_merges = false;               // a word that is a token is that token
  bool byte_fallback = false;               // Characters: unknown characters become <0xXX> tokens
  int32_t unk_id = -1;                      // Characters: the unknown token, -1 if none (dropped)
  bool fuse_unk = false;                    // consecutive unknowns become one
  std::array<int32_t, 256> fallback_ids{};  // byte_fallback: id of "<0xXX>", -1 if none

  // Registers the merge of (left, right) into `merged` with `rank`; a second merge of the same
  // pair keeps the lower rank.
  void add_merge(int32_t left, int32_t right, uint32_t rank, int32_t merged);
  size_t merge_count() const { return merges_.size(); }

  // Appends the ids of `word` (raw bytes for Bytes; the vocabulary's text for Characters).
  void encode_word(std::string_view word, std::vector<int32_t>* out) const;

 private:
  void initial_symbols(std::string_view word, std::vector<int32_t>* symbols) const;
  void merge(std::vector<int32_t>* symbols) const;

  std::unordered_map<uint64_t, BpeMerge> merges_;
  mutable std::mutex cache_mutex_;
  mutable std::unordered_map<std::string, std::vector<int32_t>> cache_;
};

}  // namespace ember::llm
