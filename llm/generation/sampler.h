// Picks the next token from a step's logits. In order, as Hugging Face's generate() applies its
// processors: repetition penalty (CTRL: a seen token's logit is divided by the penalty when
// positive, multiplied when negative), then greedy when temperature is 0, else temperature,
// top-k, softmax, top-p (the smallest set of most likely tokens whose mass reaches top_p), min-p
// (drop tokens below min_p times the most likely one's probability), and one draw from the
// renormalised rest with the seeded Rng. Candidates are ordered by probability, then by id, so
// ties are deterministic. Same seed, same logits: same tokens.
#pragma once

#include <cstdint>
#include <vector>

#include "llm/generation/random.h"
#include "runtime/core/result.h"

namespace ember::llm {

struct SamplingConfig {
  float temperature = 0.0f;         // 0: greedy (the lowest id among equal maxima)
  int32_t top_k = 0;                // 0: off
  float top_p = 1.0f;               // 1: off; in (0, 1]
  float min_p = 0.0f;               // 0: off; in [0, 1]
  float repetition_penalty = 1.0f;  // 1: off; > 0
  uint64_t seed = 0;
};

// InvalidArgument naming the field when a value is out of range.
runtime::Error check_sampling_config(const SamplingConfig& config);

class Sampler {
 public:
  // `config` must pass check_sampling_config (create() checks it).
  static runtime::Result<Sampler> create(const SamplingConfig& config);

  // The next token given `logits` (one per vocabulary id) and the ids seen so far (prompt and
  // generated; for the repetition penalty). InvalidArgument on empty logits or a NaN.
  runtime::Result<int32_t> sample(const std::vector<float>& logits,
                                  const std::vector<int32_t>& history);

  // Restarts the random stream (same seed: the same draws again).
  void reset() { rng_.reseed(config_.seed); }

  // The random stream's position, to continue it elsewhere (a saved session).
  const Rng& rng() const { return rng_; }
  void set_rng(const Rng& rng) { rng_ = rng; }

 private:
  explicit Sampler(const SamplingConfig& config) : config_(config), rng_(config.seed) {}
  SamplingConfig config_;
  Rng rng_;
  std::vector<float> work_;
  std::vector<int32_t> order_;
};

}  // namespace ember::llm
