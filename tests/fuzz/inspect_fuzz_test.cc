// Deterministic run of the inspect_fuzz entry point in `bazel test`: the committed .pt2
// fixtures (raw and as entries) and .pte files lowered from them summarize cleanly, and
// fixed-seed mutations (structured for .pt2, byte-level for .pte) end in a summary or an
// error with a message. The libFuzzer build (inspect_run_fuzz.sh) explores further.
#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"
#include "tests/fuzz/inspect_fuzz.h"
#include "tests/fuzz/pt2_seeds.h"
#include "tests/support/shared_fixtures.h"

namespace ember::fuzz {
namespace {

TEST(InspectFuzzTest, EveryFixtureSummarizes) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  const std::vector<Seed> seeds = pt2_seeds(testing::runfiles_root(), size_t(8) << 20);
  ASSERT_GE(seeds.size(), 40u);
  for (const Seed& s : seeds) {
    runtime::clear_error_message();
    EXPECT_EQ(inspect_fuzz_input(s.bytes.data(), s.bytes.size()), aot::Error::Ok)
        << s.name << ": " << runtime::last_error_message();
  }
}

void expect_named(aot::Error e, const std::string& what) {
  if (e != aot::Error::Ok) {
    EXPECT_NE(runtime::last_error_message()[0], '\0') << what << ": " << aot::error_name(e) << " without a message";
  }
}

TEST(InspectFuzzTest, Pt2MutationsEndInASummaryOrANamedError) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  std::vector<Seed> seeds;
  for (Seed& s : pt2_seeds(testing::runfiles_root(), size_t(64) << 10)) {
    if (s.name.find(".entries") != std::string::npos) seeds.push_back(std::move(s));
  }
  ASSERT_GE(seeds.size(), 8u);
  Rng rng(0xfeed);
  for (int i = 0; i < 400; ++i) {
    const Seed& seed = seeds[rng.below(seeds.size())];
    const std::vector<uint8_t> input = mutate_entries(seed.bytes, &rng);
    runtime::clear_error_message();
    expect_named(inspect_fuzz_input(input.data(), input.size()), seed.name + " mutation " + std::to_string(i));
  }
}

TEST(InspectFuzzTest, PteMutationsEndInASummaryOrANamedError) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  const std::string dir = testing::shared_dir();
  if (dir.empty()) GTEST_SKIP() << testing::skip_message();
  const std::string pte_dir = dir + "/fixtures/executorch-pte/";
  std::vector<Seed> seeds;
  for (const std::string& name : testing::list_files(pte_dir, ".pte")) {
    Seed s{name, {}};
    if (testing::read_file(pte_dir + name, &s.bytes) && s.bytes.size() < (size_t(1) << 20)) seeds.push_back(s);
  }
  ASSERT_FALSE(seeds.empty());
  Rng rng(0xbeef);
  for (int i = 0; i < 3000; ++i) {
    const Seed& seed = seeds[rng.below(seeds.size())];
    std::vector<uint8_t> b = seed.bytes;
    for (size_t k = 1 + rng.below(4); k > 0; --k) {
      const size_t pos = 8 + rng.below(b.size() - 8);  // keep "ET12": this is the .pte path
      b[pos] = rng.below(2) ? uint8_t(rng.next()) : uint8_t(b[pos] ^ (1u << rng.below(8)));
    }
    if (rng.below(8) == 0) b.resize(8 + rng.below(b.size() - 8));
    runtime::clear_error_message();
    expect_named(inspect_fuzz_input(b.data(), b.size()), seed.name + " mutation " + std::to_string(i));
  }
}

}  // namespace
}  // namespace ember::fuzz
