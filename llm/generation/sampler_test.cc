// Expectations derived by hand from the definitions in sampler.h and from published reference
// outputs (splitmix64).
#include "llm/generation/sampler.h"

#include <gtest/gtest.h>

#include <cmath>

#include "runtime/core/diagnostics.h"

namespace ember::llm {
namespace {

using runtime::Error;

Sampler make(SamplingConfig c) {
  auto s = Sampler::create(c);
  EXPECT_TRUE(s.ok()) << runtime::last_error_message();
  return std::move(s.get());
}

// Logits whose softmax is exactly {0.5, 0.3, 0.2}.
const std::vector<float> kThree = {std::log(0.5f), std::log(0.3f), std::log(0.2f)};

TEST(RngTest, Splitmix64MatchesItsReferenceOutputs) {
  uint64_t state = 0;
  EXPECT_EQ(splitmix64(&state), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(splitmix64(&state), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(splitmix64(&state), 0x06c45d188009454fULL);
}

TEST(SamplerTest, GreedyTakesTheFirstMaximum) {
  Sampler s = make({});
  EXPECT_EQ(s.sample({1, 3, 3, 0}, {}).get(), 1);
}

TEST(SamplerTest, RepetitionPenaltyDividesPositiveAndMultipliesNegative) {
  SamplingConfig c;
  c.repetition_penalty = 2.0f;
  Sampler s = make(c);
  // 2.0 seen -> 1.0 < 1.5: token 1 wins.
  EXPECT_EQ(s.sample({2.0f, 1.5f, -1.0f}, {0}).get(), 1);
  // -1.0 seen -> -2.0: token 0 still wins.
  EXPECT_EQ(s.sample({2.0f, 1.5f, -1.0f}, {2, 2}).get(), 0);
  // A negative maximum pushed further down: -0.5 * 2 = -1.0 < -0.8.
  EXPECT_EQ(s.sample({-0.5f, -0.8f}, {0}).get(), 1);
}

TEST(SamplerTest, TopKOneIsGreedyWhateverTheSeed) {
  for (uint64_t seed = 0; seed < 20; ++seed) {
    SamplingConfig c;
    c.temperature = 1.0f;
    c.top_k = 1;
    c.seed = seed;
    Sampler s = make(c);
    EXPECT_EQ(s.sample({0.1f, 0.4f, 0.39f}, {}).get(), 1);
  }
}

std::vector<int> histogram(SamplingConfig c, const std::vector<float>& logits, int draws) {
  Sampler s = make(c);
  std::vector<int> counts(logits.size(), 0);
  for (int i = 0; i < draws; ++i) ++counts[s.sample(logits, {}).get()];
  return counts;
}

TEST(SamplerTest, DrawsFollowTheSoftmax) {
  SamplingConfig c;
  c.temperature = 1.0f;
  c.seed = 7;
  const auto counts = histogram(c, kThree, 20000);
  EXPECT_NEAR(counts[0] / 20000.0, 0.5, 0.02);
  EXPECT_NEAR(counts[1] / 20000.0, 0.3, 0.02);
  EXPECT_NEAR(counts[2] / 20000.0, 0.2, 0.02);
}

TEST(SamplerTest, TemperatureSharpens) {
  // T = 0.5 squares the probabilities: 0.25 : 0.09 : 0.04 -> 0.658, 0.237, 0.105.
  SamplingConfig c;
  c.temperature = 0.5f;
  c.seed = 3;
  const auto counts = histogram(c, kThree, 20000);
  EXPECT_NEAR(counts[0] / 20000.0, 0.25 / 0.38, 0.02);
  EXPECT_NEAR(counts[2] / 20000.0, 0.04 / 0.38, 0.02);
}

TEST(SamplerTest, TopPKeepsTheSmallestSetReachingP) {
  SamplingConfig c;
  c.temperature = 1.0f;
  c.top_p = 0.5f;  // 0.5 alone reaches it
  EXPECT_EQ(histogram(c, kThree, 2000)[0], 2000);
  c.top_p = 0.6f;  // {0.5, 0.3}, renormalised 0.625 / 0.375
  const auto counts = histogram(c, kThree, 20000);
  EXPECT_EQ(counts[2], 0);
  EXPECT_NEAR(counts[0] / 20000.0, 0.625, 0.02);
}

TEST(SamplerTest, MinPDropsTokensBelowAFractionOfTheBest) {
  SamplingConfig c;
  c.temperature = 1.0f;
  c.min_p = 0.5f;  // floor 0.25: keeps 0.5 and 0.3
  const auto counts = histogram(c, kThree, 5000);
  EXPECT_EQ(counts[2], 0);
  EXPECT_GT(counts[1], 0);
}

TEST(SamplerTest, SameSeedSameTokensOtherSeedOtherTokens) {
  const std::vector<float> flat(10, 0.0f);
  auto run = [&](uint64_t seed) {
    SamplingConfig c;
    c.temperature = 1.0f;
    c.seed = seed;
    Sampler s = make(c);
    std::vector<int32_t> out;
    for (int i = 0; i < 50; ++i) out.push_back(s.sample(flat, {}).get());
    return out;
  };
  EXPECT_EQ(run(42), run(42));
  EXPECT_NE(run(42), run(43));
}

TEST(SamplerTest, BadConfigAndLogitsAreNamedErrors) {
  SamplingConfig c;
  c.top_p = 0.0f;
  EXPECT_EQ(Sampler::create(c).error(), Error::InvalidArgument);
  c = {};
  c.temperature = -1.0f;
  EXPECT_EQ(Sampler::create(c).error(), Error::InvalidArgument);
  c = {};
  c.repetition_penalty = 0.0f;
  EXPECT_EQ(Sampler::create(c).error(), Error::InvalidArgument);
  Sampler s = make({});
  EXPECT_EQ(s.sample({}, {}).error(), Error::InvalidArgument);
  EXPECT_EQ(s.sample({1.0f, NAN}, {}).error(), Error::InvalidArgument);
}

}  // namespace
}  // namespace ember::llm
