// SHA-256 against the FIPS 180-2 appendix test vectors ("abc", the 448-bit
// two-block message, one million 'a') plus the well-known empty-string digest,
// and a check that streaming in odd-sized pieces gives the one-shot digest.
#include "aot/emit/sha256.h"

#include <gtest/gtest.h>

#include <string>

namespace ember::aot {
namespace {

std::string hex_of(const std::string& s) { return to_hex(sha256(s.data(), s.size())); }

TEST(Sha256, FipsOneBlockAbc) {
  EXPECT_EQ(hex_of("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

TEST(Sha256, FipsTwoBlockMessage) {
  EXPECT_EQ(hex_of("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

TEST(Sha256, FipsOneMillionA) {
  Sha256 hasher;
  std::string chunk(1000, 'a');
  for (int i = 0; i < 1000; ++i) hasher.update(chunk.data(), chunk.size());
  EXPECT_EQ(to_hex(hasher.finish()),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, EmptyMessage) {
  EXPECT_EQ(hex_of(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
}

TEST(Sha256, StreamingMatchesOneShot) {
  std::string message(1000, '\0');
  for (size_t i = 0; i < message.size(); ++i) message[i] = static_cast<char>(i * 7 + 3);
  Sha256 hasher;
  size_t pos = 0, step = 1;
  while (pos < message.size()) {
    size_t n = std::min(step, message.size() - pos);
    hasher.update(message.data() + pos, n);
    pos += n;
    step = step * 3 + 1;
  }
  EXPECT_EQ(to_hex(hasher.finish()), hex_of(message));
  // The object is reusable after finish().
  hasher.update("abc", 3);
  EXPECT_EQ(to_hex(hasher.finish()),
            "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace ember::aot
