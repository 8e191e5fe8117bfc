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

  // The generator's whole state (saved with a session, so a restored conversation continues
  // the same stream) and its restoration.
  void state(uint64_t out[4]) const {
    for (int i = 0; i < 4; ++i) out[i] = s_[i];
  }
  void set_state(const uint64_t in[4]) {
    for (int i = 0; i < 4; ++i) s_[i] = in[i];
  }

 private:
  uint64_t s_[4];
};

// splitmix64: advances `state` and returns the next output (also used to seed Rng).
uint64_t splitmix64(uint64_t* state);

}  // namespace ember::llm
