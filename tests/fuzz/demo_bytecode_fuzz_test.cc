// Deterministic run of the demo bytecode fuzz target in the ordinary test suite: every
// seed verifies and runs, then 20,000 seeded random mutations (bit flips, byte and u16
// field overwrites at slot/instruction offsets, truncation, extension) go through
// LLVMFuzzerTestOneInput and load_program; each mutation must load or fail with a
// recorded message naming the demo bytecode. The libFuzzer build (demo_run_fuzz.sh)
// explores further under ASan/UBSan.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "backends/demo/runtime/bytecode_format.h"
#include "backends/demo/runtime/bytecode_program.h"
#include "runtime/core/diagnostics.h"
#include "tests/fuzz/demo_seeds.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace ember::testing {
namespace {

using backends::demo::fnv1a32;

void repair(std::vector<uint8_t>* b) {
  if (b->size() < 32) return;
  const uint32_t total = static_cast<uint32_t>(b->size());
  const uint32_t sum = fnv1a32(b->data() + 32, b->size() - 32);
  for (int i = 0; i < 4; ++i) {
    (*b)[8 + i] = static_cast<uint8_t>(total >> (8 * i));
    (*b)[12 + i] = static_cast<uint8_t>(sum >> (8 * i));
  }
}

std::vector<uint8_t> mutate(std::vector<uint8_t> b, std::mt19937* rng) {
  std::uniform_int_distribution<int> kind(0, 5);
  auto at = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(*rng); };
  const int k = kind(*rng);
  if (b.empty()) return b;
  if (k == 0) b[at(b.size())] ^= static_cast<uint8_t>(1u << at(8));
  if (k == 1) b[at(b.size())] = static_cast<uint8_t>(at(256));
  if (k == 2 && b.size() > 36) {  // a u16 field: small values hit the interesting ranges
    const size_t pos = 32 + 2 * at((b.size() - 34) / 2);
    const uint16_t v = static_cast<uint16_t>(at(4) == 0 ? 0xFFFF : at(12));
    b[pos] = static_cast<uint8_t>(v);
    b[pos + 1] = static_cast<uint8_t>(v >> 8);
  }
  if (k == 3) b.resize(at(b.size()));
  if (k == 4) b.insert(b.begin() + static_cast<long>(at(b.size())), 4, static_cast<uint8_t>(at(256)));
  if (k == 5 && b.size() >= 32) b[16 + at(16)] = static_cast<uint8_t>(at(8));  // header counts
  return b;
}

TEST(DemoBytecodeFuzz, SeedsVerify) {
  for (const auto& [name, blob] : demo_seed_blobs()) {
    std::vector<uint8_t> arena(1 << 16);
    runtime::MemoryAllocator allocator(arena.data(), arena.size());
    auto p = backends::demo::load_program(blob.data(), blob.size(), &allocator);
    EXPECT_TRUE(p.ok()) << name << ": " << runtime::last_error_message();
    EXPECT_EQ(LLVMFuzzerTestOneInput(blob.data(), blob.size()), 0);
  }
}

TEST(DemoBytecodeFuzz, RandomMutationsGiveNamedErrors) {
  std::mt19937 rng(12345);
  const auto seeds = demo_seed_blobs();
  size_t loaded = 0, rejected = 0;
  std::vector<uint8_t> arena(1 << 16);
  for (int i = 0; i < 20000; ++i) {
    std::vector<uint8_t> b = seeds[static_cast<size_t>(i) % seeds.size()].second;
    const int rounds = 1 + i % 3;
    for (int r = 0; r < rounds; ++r) b = mutate(std::move(b), &rng);
    (void)LLVMFuzzerTestOneInput(b.data(), b.size());
    repair(&b);
    runtime::MemoryAllocator allocator(arena.data(), arena.size());
    runtime::clear_error_message();
    auto p = backends::demo::load_program(b.data(), b.size(), &allocator);
    if (p.ok()) {
      ++loaded;
      continue;
    }
    ++rejected;
    const std::string message = runtime::last_error_message();
    ASSERT_NE(message.find("demo bytecode"), std::string::npos)
        << "mutation " << i << ": " << message;
  }
  EXPECT_GT(rejected, 1000u);
  EXPECT_GT(loaded, 100u);  // some mutations stay valid and run
}

// Found by demo_run_fuzz.sh: a slot of sizes [0, 17667, 33563392, ...] has 0 elements but
// strides that overflow int32; the verifier now bounds the product of nonzero sizes.
TEST(DemoBytecodeFuzz, RegressionZeroSizeWithHugeStrides) {
  const std::vector<uint8_t> blob = {
      0x45, 0x44, 0x4d, 0x4f, 0x01, 0x00, 0x20, 0x00, 0x88, 0x00, 0x00, 0x00, 0xf2, 0x96, 0x83, 0x44,
      0x02, 0x00, 0x01, 0x00, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x00, 0x06, 0x04, 0x00, 0x00, 0x01, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x01, 0x06, 0x04, 0x00, 0x00, 0x23, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
      0x03, 0x45, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
      0x03, 0x00, 0x02, 0x00, 0x00, 0x00, 0x00, 0x00,
  };
  std::vector<uint8_t> repaired = blob;
  repair(&repaired);
  std::vector<uint8_t> arena(1 << 16);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  auto p = backends::demo::load_program(repaired.data(), repaired.size(), &allocator);
  ASSERT_FALSE(p.ok());
  EXPECT_NE(std::string(runtime::last_error_message()).find("nonzero sizes exceeds"),
            std::string::npos)
      << runtime::last_error_message();
  EXPECT_EQ(LLVMFuzzerTestOneInput(blob.data(), blob.size()), 0);
}

}  // namespace
}  // namespace ember::testing
