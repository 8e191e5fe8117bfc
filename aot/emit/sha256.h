// SHA-256 (FIPS 180-4) for the AoT toolchain: de-duplicating constants and
// delegate blobs by content, and naming XNNPACK weights in named_data by the hex
// digest of their bytes. Streaming (update/finish) and one-shot helpers.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace ember::aot {

using Sha256Digest = std::array<uint8_t, 32>;

class Sha256 {
 public:
  Sha256();
  // Feeds `size` bytes. May be called any number of times before finish().
  void update(const void* data, size_t size);
  // Pads, returns the digest and leaves the object ready for a new message.
  Sha256Digest finish();

 private:
  void compress(const uint8_t* block);
  void reset();

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> block_;
  size_t block_used_ = 0;
  uint64_t total_bytes_ = 0;
};

Sha256Digest sha256(const void* data, size_t size);
Sha256Digest sha256(const std::vector<uint8_t>& bytes);
// Lower-case hex, 64 characters.
std::string to_hex(const Sha256Digest& digest);
std::string sha256_hex(const std::vector<uint8_t>& bytes);

}  // namespace ember::aot
