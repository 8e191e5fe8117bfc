// ContentHash: the value does not depend on how the bytes are split, and one changed byte,
// one more zero byte or swapped words change it.
#include "llm/runner/content_hash.h"

#include <gtest/gtest.h>

#include <vector>

namespace ember::llm {
namespace {

uint64_t hash_of(const std::vector<uint8_t>& bytes, size_t split) {
  ContentHash h;
  h.update(bytes.data(), split);
  h.update(bytes.data() + split, bytes.size() - split);
  return h.finish();
}

TEST(ContentHashTest, SplitsDoNotMatterAndChangesShow) {
  std::vector<uint8_t> bytes(37);
  for (size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<uint8_t>(i * 7 + 1);
  const uint64_t whole = hash_of(bytes, bytes.size());
  for (size_t split = 0; split <= bytes.size(); ++split) EXPECT_EQ(hash_of(bytes, split), whole);
  std::vector<uint8_t> changed = bytes;
  changed[20] ^= 1;
  EXPECT_NE(hash_of(changed, 0), whole);
  std::vector<uint8_t> longer = bytes;
  longer.push_back(0);
  EXPECT_NE(hash_of(longer, 0), whole);
  std::vector<uint8_t> swapped = bytes;
  for (int i = 0; i < 8; ++i) std::swap(swapped[i], swapped[8 + i]);
  EXPECT_NE(hash_of(swapped, 0), whole);
  EXPECT_NE(ContentHash().finish(), whole);
}

}  // namespace
}  // namespace ember::llm
