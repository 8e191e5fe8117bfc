// Deterministic run of the pt2_read_fuzz entry point in `bazel test`: every committed .pt2
// fixture (raw and as entries) reads, and fixed-seed structured mutations end in a graph or
// an error with a message. The libFuzzer build (pt2_read_run_fuzz.sh) explores further.
#include "tests/fuzz/pt2_read_fuzz.h"

#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/pt2_seeds.h"
#include "tests/support/shared_fixtures.h"

namespace ember::fuzz {
namespace {

TEST(Pt2ReadFuzzTest, EveryFixtureReadsInBothForms) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  const std::vector<Seed> seeds = pt2_seeds(testing::runfiles_root(), size_t(1) << 20);
  ASSERT_GE(seeds.size(), 40u);
  for (const Seed& s : seeds) {
    runtime::clear_error_message();
    EXPECT_EQ(read_fuzz_input(s.bytes.data(), s.bytes.size()), aot::Error::Ok)
        << s.name << ": " << runtime::last_error_message();
  }
}

// Issue #33's bound seeds: the deep stack_traces (200k and 1M levels) and the duplicate
// model.json are refused as malformed; the unused records cost nothing and the file reads;
// control bytes in a stack_trace are data (escaped where printed) and the file reads.
TEST(Pt2ReadFuzzTest, BoundSeedsEndAsIssue33Requires) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  const std::vector<Seed> seeds = pt2_bound_seeds(testing::runfiles_root());
  ASSERT_EQ(seeds.size(), 6u);
  for (const Seed& s : seeds) {
    runtime::clear_error_message();
    const bool reads = s.name.find("unused") != std::string::npos ||
                       s.name.find("control_bytes") != std::string::npos;
    const aot::Error want = reads ? aot::Error::Ok : aot::Error::InvalidProgram;
    EXPECT_EQ(read_fuzz_input(s.bytes.data(), s.bytes.size()), want)
        << s.name << ": " << runtime::last_error_message();
  }
}

TEST(Pt2ReadFuzzTest, MutationsEndInAGraphOrANamedError) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  std::vector<Seed> seeds;
  for (Seed& s : pt2_seeds(testing::runfiles_root(), size_t(64) << 10)) {
    if (s.name.find(".entries") != std::string::npos) seeds.push_back(std::move(s));
  }
  ASSERT_GE(seeds.size(), 8u);
  Rng rng(0x7ead);
  size_t read = 0, refused = 0;
  for (int i = 0; i < 2000; ++i) {
    const Seed& seed = seeds[rng.below(seeds.size())];
    const std::vector<uint8_t> input = mutate_entries(seed.bytes, &rng);
    runtime::clear_error_message();
    const aot::Error e = read_fuzz_input(input.data(), input.size());
    if (e == aot::Error::Ok) {
      ++read;
    } else {
      ++refused;
      EXPECT_NE(runtime::last_error_message()[0], '\0')
          << seed.name << " mutation " << i << ": " << aot::error_name(e) << " without a message";
    }
  }
  EXPECT_GT(read, 100u);
  EXPECT_GT(refused, 100u);
}

}  // namespace
}  // namespace ember::fuzz
