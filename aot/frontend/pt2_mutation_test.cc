// Structured mutation tests: bit flips in a .pt2 mostly trip the zip CRC check before any
// decoding happens, so this test mutates the decoded payloads instead — the program JSON,
// the raw-weights config JSON and the state-dict pickle — re-packs them with valid CRCs,
// and reads the result. Every read must return (a graph or a named error) without crashing
// or tripping the sanitizers. Mutations come from a fixed-seed generator, so failures
// reproduce.
#include <gtest/gtest.h>

#include <cstdint>

#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/zip_test_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using testing::ZipEntries;

class Rng {
 public:
  uint32_t next() {
    state_ = state_ * 6364136223846793005ull + 1442695040888963407ull;
    return static_cast<uint32_t>(state_ >> 33);
  }
  size_t below(size_t n) { return n == 0 ? 0 : next() % n; }

 private:
  uint64_t state_ = 0x5eed;
};

// One random edit: flip a byte, delete a span, duplicate a span, or splice in a token
// that is likely to be structurally wrong in JSON or pickle.
void mutate(std::vector<uint8_t>& b, Rng& rng) {
  static const char* kTokens[] = {
      "-1",   "null",        "[]", "{}", "\"x\"", "1e999", "9223372036854775808",
      "true", "\"as_none\"", "0",  ":",  ","};
  if (b.empty()) return;
  size_t pos = rng.below(b.size());
  switch (rng.below(4)) {
    case 0:
      b[pos] = static_cast<uint8_t>(rng.next());
      break;
    case 1:
      b.erase(b.begin() + pos, b.begin() + std::min(b.size(), pos + 1 + rng.below(16)));
      break;
    case 2: {
      size_t len = std::min(b.size() - pos, 1 + rng.below(32));
      std::vector<uint8_t> span(b.begin() + pos, b.begin() + pos + len);
      b.insert(b.begin() + pos, span.begin(), span.end());
      break;
    }
    default: {
      std::string tok = kTokens[rng.below(sizeof(kTokens) / sizeof(kTokens[0]))];
      b.insert(b.begin() + pos, tok.begin(), tok.end());
    }
  }
}

class MutationTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = ember::testing::shared_dir();
    if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
    std::string base = dir + "/fixtures/pt2/generated/";
    ASSERT_TRUE(ember::testing::read_file(base + "conv_bn_relu.core_aten.torch2_6.pt2", &legacy_));
    ASSERT_TRUE(
        ember::testing::read_file(base + "mlp_dynamic_batch.core_aten.torch2_14.pt2", &archive_));
  }

  // Mutates entry `suffix` of `file` `rounds` times (1..3 edits each) and reads each result.
  void run(const std::vector<uint8_t>& file, const std::string& suffix, int rounds,
           bool nested_pickle) {
    ZipEntries entries = testing::unzip_all(file);
    std::vector<uint8_t>* target = testing::find_entry(entries, suffix);
    ASSERT_NE(target, nullptr) << suffix;
    const std::vector<uint8_t> original = *target;
    ZipEntries inner;
    std::vector<uint8_t> pickle;
    if (nested_pickle) {
      inner = testing::unzip_all(original);
      std::vector<uint8_t>* pkl = testing::find_entry(inner, "data.pkl");
      ASSERT_NE(pkl, nullptr);
      pickle = *pkl;
    }
    Rng rng;
    int ok = 0, errors = 0;
    for (int i = 0; i < rounds; ++i) {
      std::vector<uint8_t> data = nested_pickle ? pickle : original;
      for (size_t k = 0, n = 1 + rng.below(3); k < n; ++k) mutate(data, rng);
      if (nested_pickle) {
        *testing::find_entry(inner, "data.pkl") = data;
        *target = testing::zip_all(inner);
      } else {
        *target = data;
      }
      std::vector<uint8_t> packed = testing::zip_all(entries);
      auto g = read_pt2_buffer(packed.data(), packed.size(), "m.pt2");
      if (g.ok()) {
        ++ok;
      } else {
        ++errors;
        EXPECT_FALSE(std::string(last_error_message()).empty());
      }
    }
    EXPECT_GT(errors, rounds / 4) << "most mutations should be caught";
    RecordProperty(suffix + "_ok", ok);
  }

  std::vector<uint8_t> legacy_;
  std::vector<uint8_t> archive_;
};

TEST_F(MutationTest, ProgramJson) { run(legacy_, "serialized_exported_program.json", 300, false); }
TEST_F(MutationTest, ArchiveProgramJson) { run(archive_, "models/model.json", 150, false); }
TEST_F(MutationTest, WeightsConfigJson) { run(archive_, "model_weights_config.json", 150, false); }
TEST_F(MutationTest, StateDictPickle) { run(legacy_, "serialized_state_dict.pt", 300, true); }

}  // namespace
}  // namespace ember::aot
