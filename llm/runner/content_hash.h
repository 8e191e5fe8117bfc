// ContentHash: a streaming 64-bit hash (FNV-style multiply-xor over 8-byte little-endian words,
// the length mixed in at the end). Not cryptographic: it tells a saved session's model file and
// the session file's own bytes apart from other files and from damage, fast enough to run over
// a model's weights once per load. Feeding the same bytes in any split gives the same value.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::llm {

class ContentHash {
 public:
  void update(const void* data, size_t size);
  uint64_t finish() const;

 private:
  void mix(uint64_t word) {
    h_ = (h_ ^ word) * 0x100000001b3ULL;
    h_ ^= h_ >> 29;
  }
  uint64_t h_ = 0xcbf29ce484222325ULL;
  uint64_t total_ = 0;
  uint8_t pending_[8] = {};
  size_t num_pending_ = 0;
};

}  // namespace ember::llm
