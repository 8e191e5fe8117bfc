#include "llm/runner/content_hash.h"

#include <cstring>

namespace ember::llm {

void ContentHash::update(const void* data, size_t size) {
  const auto* p = static_cast<const uint8_t*>(data);
  total_ += size;
  while (size > 0 && num_pending_ > 0) {
    pending_[num_pending_++] = *p++;
    --size;
    if (num_pending_ == 8) {
      uint64_t w;
      std::memcpy(&w, pending_, 8);
      mix(w);
      num_pending_ = 0;
    }
  }
  for (; size >= 8; size -= 8, p += 8) {
    uint64_t w;
    std::memcpy(&w, p, 8);
    mix(w);
  }
  for (; size > 0; --size) pending_[num_pending_++] = *p++;
}

uint64_t ContentHash::finish() const {
  uint64_t h = h_;
  for (size_t i = 0; i < num_pending_; ++i) h = (h ^ pending_[i]) * 0x100000001b3ULL;
  h = (h ^ total_) * 0x100000001b3ULL;
  return h ^ (h >> 32);
}

}  // namespace ember::llm
