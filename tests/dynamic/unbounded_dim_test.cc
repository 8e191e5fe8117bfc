// Issue #8, AoT: a dynamic dim without an upper bound cannot be memory-planned; lowering
// fails with an error naming the value, the dim and its symbol, and suggesting
// Dim(..., max=N). The input is the real mlp_dynamic_batch .pt2 (torch 2.6 legacy zip)
// with its range constraint's max_val replaced by null (torch writes null / int_oo for an
// unbounded Dim). The unmodified file lowers (control).
#include <gtest/gtest.h>

#include <cstdio>

#include "aot/frontend/zip_test_util.h"
#include "tests/dynamic/dynamic_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

TEST(UnboundedDimTest, LoweringNamesTheDimAndSuggestsAMax) {
  Fixture f;
  if (!find_fixture("mlp_dynamic_batch.core_aten.torch2_6", &f)) GTEST_SKIP() << "fixture not found";
  ASSERT_TRUE(lower_pt2(f.pt2, "portable").ok());  // control
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(read_file(f.pt2, &bytes));
  aot::testing::ZipEntries entries = aot::testing::unzip_all(bytes);
  std::vector<uint8_t>* program = aot::testing::find_entry(entries, "serialized_exported_program.json");
  ASSERT_NE(program, nullptr);
  std::string json = aot::testing::as_text(*program);
  const std::string bounded = "\"max_val\": 64";
  size_t at = json.find(bounded);
  ASSERT_NE(at, std::string::npos) << "fixture layout changed";
  json.replace(at, bounded.size(), "\"max_val\": null");
  *program = aot::testing::as_bytes(json);
  const std::string path = ::testing::TempDir() + "/mlp_unbounded.pt2";
  std::vector<uint8_t> zip = aot::testing::zip_all(entries);
  FILE* out = std::fopen(path.c_str(), "wb");
  ASSERT_NE(out, nullptr);
  ASSERT_EQ(std::fwrite(zip.data(), 1, zip.size(), out), zip.size());
  std::fclose(out);

  auto pte = lower_pt2(path, "portable");
  ASSERT_FALSE(pte.ok()) << "an unbounded dynamic dim was lowered";
  const std::string msg = ::ember::aot::format_error(pte.error());
  EXPECT_NE(msg.find("dim 0 (s0, min 1) has no upper bound"), std::string::npos) << msg;
  EXPECT_NE(msg.find("max=N"), std::string::npos) << msg;
}

}  // namespace
}  // namespace ember::testing
