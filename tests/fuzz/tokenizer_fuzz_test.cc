// The tokenizer readers on hostile bytes, in `bazel test`: the committed agreement tokenizers
// (llm/tokenizer/testdata) mutated with a fixed seed (bytes flipped, cut, spliced) and random
// text through the fixed tokenizer, all through the fuzz entry point. Each ends in a loaded and
// exercised tokenizer or a named error with a message.
#include "tests/fuzz/tokenizer_fuzz.h"

#include <gtest/gtest.h>

#include <random>
#include <string>

#include "llm/tokenizer/tokenizer.h"
#include "runtime/core/diagnostics.h"
#include "tests/support/shared_fixtures.h"

namespace ember::fuzz {
namespace {

using runtime::Error;

std::string testdata(const char* name) {
  auto r = llm::read_text_file(ember::testing::runfiles_root() + "/llm/tokenizer/testdata/" + name,
                               size_t{1} << 24);
  EXPECT_TRUE(r.ok()) << name;
  return r.ok() ? r.get() : "";
}

// Runs `rounds` mutations of `seed` with reader byte `kind`; returns how many loaded.
size_t mutate(uint8_t kind, const std::string& seed, int rounds, uint32_t rng_seed) {
  std::mt19937 rng(rng_seed);
  size_t ok = 0;
  for (int i = 0; i < rounds; ++i) {
    std::string m = seed;
    const int edits = 1 + rng() % 4;
    for (int e = 0; e < edits && !m.empty(); ++e) {
      const size_t at = rng() % m.size();
      switch (rng() % 4) {
        case 0:
          m[at] = static_cast<char>(rng());
          break;
        case 1:
          m.resize(at);
          break;
        case 2:
          m.insert(at, m.substr(rng() % m.size(), 1 + rng() % 16));
          break;
        default:
          m.erase(at, 1 + rng() % 8);
          break;
      }
    }
    std::string input(1, static_cast<char>(kind));
    input += m;
    runtime::clear_error_message();
    const Error err =
        tokenizer_fuzz_input(reinterpret_cast<const uint8_t*>(input.data()), input.size());
    if (err == Error::Ok) {
      ++ok;
    } else {
      EXPECT_STRNE(runtime::last_error_message(), "") << "round " << i << " kind " << int(kind);
    }
  }
  return ok;
}

TEST(TokenizerFuzzTest, MutatedTokenizerJsonLoadsOrNamesTheError) {
  mutate(0, testdata("gpt2.json"), 150, 1);
  mutate(0, testdata("llama2.json"), 150, 2);
}

TEST(TokenizerFuzzTest, MutatedTiktokenFileLoadsOrNamesTheError) {
  EXPECT_GT(mutate(1, testdata("tiktoken.tiktoken"), 200, 3), 0u);
}

TEST(TokenizerFuzzTest, MutatedSentencePieceModelLoadsOrNamesTheError) {
  mutate(2, testdata("spm_unigram.model"), 200, 4);
  mutate(2, testdata("spm_bpe.model"), 200, 5);
}

TEST(TokenizerFuzzTest, RandomTextEncodes) {
  std::mt19937 rng(6);
  for (int i = 0; i < 2000; ++i) {
    std::string input(1, '\x03');
    const size_t n = rng() % 200;
    for (size_t k = 0; k < n; ++k)
      input.push_back(static_cast<char>(rng() % 3 ? rng() % 128 : rng()));
    EXPECT_EQ(tokenizer_fuzz_input(reinterpret_cast<const uint8_t*>(input.data()), input.size()),
              Error::Ok)
        << runtime::last_error_message();
  }
}

}  // namespace
}  // namespace ember::fuzz
