// Deterministic run of the inspect_fuzz entry point in `bazel test`: the committed .pt2
// fixtures (raw and as entries) and .pte files lowered from them summarize cleanly, and
// fixed-seed mutations (structured for .pt2, byte-level for .pte) end in a summary or an
// error with a message. The libFuzzer build (inspect_run_fuzz.sh) explores further.
#include <gtest/gtest.h>

#include <string>

#include "runtime/core/diagnostics.h"
#include "runtime/platform/log.h"
#include "schema/program_generated.h"
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

// Found by the 2026-11-24 inspect_fuzz campaign (UBSan): this .pte passes the FlatBuffers
// verifier, which checks only a vector's 4-byte length prefix for alignment, but places a
// plan's int64 non_const_buffer_sizes on a 4-byte boundary; the summary read them with
// Vector::Get, a misaligned 8-byte load. They are read bytewise now (schema/flatbuffer_elements.h);
// the sanitizer suite (--config=asan, which includes UBSan's alignment check) fails without that.
TEST(InspectFuzzTest, MisalignedBufferSizesAreReadBytewise) {
  runtime::set_min_log_level(runtime::LogLevel::Fatal);
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(testing::read_file(testing::runfiles_root() + "/tests/fuzz/testdata/misaligned_buffer_sizes.pte", &bytes));
  // The input still holds the case: some plan's sizes sit off an 8-byte boundary.
  const auto* program = executorch_flatbuffer::GetProgram(bytes.data());
  ASSERT_NE(program->execution_plan(), nullptr);
  bool misaligned = false;
  for (const auto* plan : *program->execution_plan()) {
    const auto* sizes = plan->non_const_buffer_sizes();
    if (sizes != nullptr && sizes->size() > 0 && reinterpret_cast<uintptr_t>(sizes->Data()) % 8 != 0) misaligned = true;
  }
  ASSERT_TRUE(misaligned);
  runtime::clear_error_message();
  const aot::Error e = inspect_fuzz_input(bytes.data(), bytes.size());
  EXPECT_TRUE(e == aot::Error::Ok || runtime::last_error_message()[0] != '\0') << aot::error_name(e);
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
