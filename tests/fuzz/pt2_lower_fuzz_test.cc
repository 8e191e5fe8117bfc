// Deterministic run of the pt2_lower_fuzz entry point in `bazel test`: every committed .pt2
// fixture (raw and as re-packed entries) lowers through it, and fixed-seed structured
// mutations of the small ones end in a .pte or an error with a message. The libFuzzer build
// (pt2_run_fuzz.sh) explores further under ASan/UBSan.
#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/pt2_lower_fuzz.h"
#include "tests/fuzz/pt2_seeds.h"
#include "tests/support/shared_fixtures.h"

namespace ember::fuzz {
namespace {

TEST(Pt2LowerFuzzTest, EveryFixtureLowersInBothForms) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  const std::vector<Seed> seeds = pt2_seeds(testing::runfiles_root(), size_t(1) << 20);
  ASSERT_GE(seeds.size(), 40u);  // both folders were found
  for (const Seed& s : seeds) {
    runtime::clear_error_message();
    const aot::Error e = lower_fuzz_input(s.bytes.data(), s.bytes.size());
    EXPECT_EQ(e, aot::Error::Ok) << s.name << ": " << runtime::last_error_message();
  }
}

TEST(Pt2LowerFuzzTest, MutationsEndInAPteOrANamedError) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  std::vector<Seed> seeds;
  for (Seed& s : pt2_seeds(testing::runfiles_root(), size_t(64) << 10)) {
    if (s.name.find(".entries") != std::string::npos) seeds.push_back(std::move(s));
  }
  ASSERT_GE(seeds.size(), 8u);
  Rng rng(0x5eed);
  size_t lowered = 0, refused = 0;
  for (int i = 0; i < 400; ++i) {
    const Seed& seed = seeds[rng.below(seeds.size())];
    const std::vector<uint8_t> input = mutate_entries(seed.bytes, &rng);
    runtime::clear_error_message();
    const aot::Error e = lower_fuzz_input(input.data(), input.size());
    if (e == aot::Error::Ok) {
      ++lowered;
    } else {
      ++refused;
      EXPECT_NE(runtime::last_error_message()[0], '\0') << seed.name << " mutation " << i << ": "
                                               << aot::error_name(e) << " without a message";
    }
  }
  // Both outcomes occur: the mutations reach past the reader, and the checks bite.
  EXPECT_GT(lowered, 20u);
  EXPECT_GT(refused, 20u);
}

}  // namespace
}  // namespace ember::fuzz
