// The seeded generator behind sampling: xoshiro256** seeded through splitmix64 (both published
// with reference outputs), so a seed gives the same stream on every platform and compiler, which
// std::mt19937 with std::uniform_real_distribution does not promise.
#pragma once

#include <cstdint>

namespace ember::llm {

class Rng {
 public:
  explicit Rng(uint64_t seed) { reseed(seed); }

  void reseed(uint64_t seed);

  // The next 64 random bits.
  uint64_t next();

  // A double in [0, 1) from the top 53 bits of next().
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  uint64_t s_[4];
};

// splitmix64: advances `state` and returns the next output (also used to seed Rng).
uint64_t splitmix64(uint64_t* state);

}  // namespace ember::llm
