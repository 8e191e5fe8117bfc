// Hand-made bad inputs for the .pt2 reader: real fixtures truncated, bit-flipped, or
// re-packed with corrupt JSON, missing or short weights, wrong dtype codes, unknown node
// kinds and argument variants. Every case must give a named error (code + message
// naming the thing), never a crash; run under --config=asan as well. Also checks the
// lenient cases the format requires (non-finite floats written either way, unknown keys).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>

#include <cmath>

#include "aot/frontend/pt2_reader.h"
#include "aot/frontend/zip_test_util.h"
#include "tests/support/shared_fixtures.h"

namespace ember::aot {
namespace {

using testing::as_bytes;
using testing::as_text;
using testing::find_entry;
using testing::unzip_all;
using testing::zip_all;
using testing::ZipEntries;

constexpr const char* kLegacy = "conv_bn_relu.core_aten.torch2_6.pt2";
constexpr const char* kArchive = "conv_bn_relu.core_aten.torch2_14.pt2";

class BadInputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string dir = ember::testing::shared_dir();
    if (dir.empty()) GTEST_SKIP() << ember::testing::skip_message();
    ASSERT_TRUE(ember::testing::read_file(dir + "/fixtures/pt2/generated/" + kLegacy, &legacy_));
    ASSERT_TRUE(ember::testing::read_file(dir + "/fixtures/pt2/generated/" + kArchive, &archive_));
  }

  static Result<Graph> read(const std::vector<uint8_t>& bytes) {
    return read_pt2_buffer(bytes.data(), bytes.size(), "test.pt2");
  }

  // Re-packs `file` after replacing the first occurrence of `from` by `to` in the entry
  // ending with `entry`.
  static std::vector<uint8_t> edit(const std::vector<uint8_t>& file, const std::string& entry,
                                   const std::string& from, const std::string& to) {
    ZipEntries entries = unzip_all(file);
    std::vector<uint8_t>* data = find_entry(entries, entry);
    EXPECT_NE(data, nullptr) << entry;
    if (data == nullptr) return {};
    std::string text = as_text(*data);
    size_t pos = text.find(from);
    EXPECT_NE(pos, std::string::npos) << from;
    if (pos != std::string::npos) text.replace(pos, from.size(), to);
    *data = as_bytes(text);
    return zip_all(entries);
  }
  static std::vector<uint8_t> edit_json(const std::vector<uint8_t>& file, const std::string& from,
                                        const std::string& to) {
    bool legacy = file.size() > 0 && unzip_all(file)[0].first.find('/') == std::string::npos;
    return edit(file, legacy ? "serialized_exported_program.json" : "models/model.json", from, to);
  }

  static void expect_error(const Result<Graph>& g, Error code, const std::string& text) {
    ASSERT_FALSE(g.ok());
    EXPECT_EQ(g.error(), code) << format_error(g.error());
    EXPECT_NE(std::string(last_error_message()).find(text), std::string::npos) << format_error(g.error());
    EXPECT_EQ(std::string(last_error_message()).rfind("test.pt2", 0), 0u) << "errors name the file";
  }

  std::vector<uint8_t> legacy_;
  std::vector<uint8_t> archive_;
};

TEST_F(BadInputTest, OriginalsRead) {
  EXPECT_TRUE(read(legacy_).ok());
  EXPECT_TRUE(read(archive_).ok());
  EXPECT_TRUE(read(zip_all(unzip_all(legacy_))).ok()) << "re-packing keeps the file valid";
  EXPECT_TRUE(read(zip_all(unzip_all(archive_))).ok());
}

TEST_F(BadInputTest, EmptyAndNonZip) {
  auto g = read_pt2_buffer(nullptr, 0, "test.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  expect_error(read(as_bytes(std::string(4096, 'x'))), Error::InvalidProgram, "zip");
  auto missing = read_pt2_file("/nonexistent/model.pt2");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error(), Error::NotFound);  // the file loader's code for a missing path
}

// Issue #16: a directory was sized with tellg and allocated as such (std::bad_alloc).
TEST_F(BadInputTest, DirectoryIsNamed) {
  const char* tmp = std::getenv("TEST_TMPDIR");
  ASSERT_NE(tmp, nullptr);
  auto g = read_pt2_file(tmp);
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::AccessFailed);
  EXPECT_EQ(std::string(last_error_message()), "'" + std::string(tmp) + "' is a directory, not a file");
}

// Issue #16: one bit flipped inside a weight of the committed mlp fixture (byte 18898 lies in
// the stored entry serialized_state_dict.pt, offsets by Python's zipfile) was read silently
// and lowered into wrong outputs; the entry's CRC-32 no longer matches.
// The committed `fixture` with bit 4 of byte `at` flipped, after checking that the intact
// bytes read as "mlp.pt2".
void flipped_fixture(const char* fixture, size_t at, std::vector<uint8_t>* bytes) {
  ASSERT_TRUE(ember::testing::read_file(ember::testing::committed_pt2_fixture(fixture), bytes));
  ASSERT_TRUE(read_pt2_buffer(bytes->data(), bytes->size(), "mlp.pt2").ok()) << format_error(Error::Ok);
  ASSERT_LT(at, bytes->size());
  (*bytes)[at] ^= 0x10;
}

TEST(Pt2IntegrityTest, FlippedWeightBitNamesTheEntry) {
  std::vector<uint8_t> bytes;
  ASSERT_NO_FATAL_FAILURE(flipped_fixture("mlp.core_aten.torch2_6.pt2", 18898, &bytes));
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "mlp.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(g.error(), Error::InvalidProgram);
  // The archive's name is said once, in front of the entry's.
  EXPECT_EQ(std::string(last_error_message()).rfind("mlp.pt2: entry 'serialized_state_dict.pt' is damaged: CRC-32 0x", 0),
            0u)
      << last_error_message();
}

// The same in a torch 2.14 archive, whose weights are separate entries (read by another path):
// byte 2748 lies in data/weights/weight_2 (offsets by Python's zipfile).
TEST(Pt2IntegrityTest, FlippedWeightBitInAWeightsEntryNamesTheEntryOnce) {
  std::vector<uint8_t> bytes;
  ASSERT_NO_FATAL_FAILURE(flipped_fixture("mlp.core_aten.torch2_14.pt2", 2748, &bytes));
  auto g = read_pt2_buffer(bytes.data(), bytes.size(), "mlp.pt2");
  ASSERT_FALSE(g.ok());
  EXPECT_EQ(std::string(last_error_message()).rfind(
                "mlp.pt2: entry 'mlp.core_aten.torch2_14/data/weights/weight_2' is damaged: CRC-32 0x", 0),
            0u)
      << last_error_message();
}

// Issue #16: a .pte given to lower says it is already a program, not "not a zip".
TEST_F(BadInputTest, PteIsNamed) {
  std::vector<uint8_t> pte(64, 0);
  std::memcpy(pte.data() + 4, "ET12", 4);
  expect_error(read(pte), Error::InvalidArgument, "this is a .pte, already a program");
}

// Issue #16: a .bpte given to lower was called a bad zip. The exact input: upstream's bundled
// program fixture.
TEST_F(BadInputTest, BundledProgramIsNamed) {
  std::vector<uint8_t> bpte;
  ASSERT_TRUE(ember::testing::read_file(
      ember::testing::shared_dir() + "/fixtures/executorch-pte/pytorch__executorch__bundled_program.bpte", &bpte));
  expect_error(read(bpte), Error::InvalidArgument,
               "this is a bundled program (.bpte), already lowered: run its test cases with executor_runner --bundled");
}

TEST_F(BadInputTest, EveryTruncationIsAnError) {
  for (const std::vector<uint8_t>* file : {&legacy_, &archive_}) {
    size_t step = file->size() / 150 + 1;
    for (size_t n = 0; n < file->size(); n += (n + 200 >= file->size() ? 1 : step)) {
      std::vector<uint8_t> cut(file->begin(), file->begin() + static_cast<std::ptrdiff_t>(n));
      auto g = read(cut);
      EXPECT_FALSE(g.ok()) << "truncated to " << n;
    }
  }
}

TEST_F(BadInputTest, BitFlipsNeverCrash) {
  for (const std::vector<uint8_t>* file : {&legacy_, &archive_}) {
    std::vector<uint8_t> copy = *file;
    size_t step = copy.size() / 200 + 1;
    int errors = 0;
    for (size_t i = 0; i < copy.size(); i += step) {
      copy[i] ^= 0x5a;
      auto g = read(copy);
      if (!g.ok()) {
        ++errors;
        EXPECT_FALSE(std::string(last_error_message()).empty());
      }
      copy[i] ^= 0x5a;
    }
    EXPECT_GT(errors, 0);
  }
}

TEST_F(BadInputTest, NeitherLayout) {
  ZipEntries entries = {{"hello.txt", as_bytes("hi")}};
  expect_error(read(zip_all(entries)), Error::InvalidProgram, "neither a legacy");
}

TEST_F(BadInputTest, MalformedJson) {
  ZipEntries entries = unzip_all(legacy_);
  std::vector<uint8_t>* json = find_entry(entries, "serialized_exported_program.json");
  ASSERT_NE(json, nullptr);
  json->resize(json->size() / 2);
  expect_error(read(zip_all(entries)), Error::InvalidProgram, "malformed JSON");
  expect_error(read(edit_json(archive_, "{", "[")), Error::InvalidProgram,
               "models/model.json");
}

TEST_F(BadInputTest, MissingWeights) {
  ZipEntries no_state;
  for (auto& e : unzip_all(legacy_)) {
    if (e.first != "serialized_state_dict.pt") no_state.push_back(e);
  }
  expect_error(read(zip_all(no_state)), Error::NotFound, "PARAMETER 'conv.weight'");
  ZipEntries no_weight;
  for (auto& e : unzip_all(archive_)) {
    if (e.first.find("data/weights/weight_0") == std::string::npos) no_weight.push_back(e);
  }
  expect_error(read(zip_all(no_weight)), Error::NotFound, "weight_0");
}

TEST_F(BadInputTest, ShortWeightRecord) {
  ZipEntries entries = unzip_all(archive_);
  std::vector<uint8_t>* w = find_entry(entries, "data/weights/weight_0");
  ASSERT_NE(w, nullptr);
  w->resize(100);
  expect_error(read(zip_all(entries)), Error::InvalidExternalData,
               "storage holds 25 elements");
}

TEST_F(BadInputTest, CorruptPickle) {
  ZipEntries entries = unzip_all(legacy_);
  std::vector<uint8_t>* state = find_entry(entries, "serialized_state_dict.pt");
  ASSERT_NE(state, nullptr);
  ZipEntries inner = unzip_all(*state);
  std::vector<uint8_t>* pkl = find_entry(inner, "data.pkl");
  ASSERT_NE(pkl, nullptr);
  pkl->resize(pkl->size() / 2);
  *state = zip_all(inner);
  expect_error(read(zip_all(entries)), Error::InvalidExternalData, "pickle offset");
}

TEST_F(BadInputTest, WrongDtypeCodes) {
  expect_error(read(edit_json(legacy_, "\"dtype\": 7", "\"dtype\": 99")), Error::InvalidType,
               "dtype code 99");
  // The first tensor_values entry is p_conv_weight: claim float64 while the weights are f32.
  expect_error(read(edit_json(legacy_, "\"p_conv_weight\": {\"dtype\": 7",
                              "\"p_conv_weight\": {\"dtype\": 8")),
               Error::InvalidExternalData, "graph says f64, weights are f32");
  expect_error(read(edit_json(archive_, "\"as_int\": 8}, {\"as_int\": 3}",
                              "\"as_int\": 9}, {\"as_int\": 3}")),
               Error::InvalidExternalData, "conv.weight");
}

TEST_F(BadInputTest, UnknownNodeKindsAndArguments) {
  expect_error(
      read(edit_json(legacy_, "torch.ops.aten.relu.default", "torch.ops.higher_order.scan")),
      Error::NotSupported, "higher-order operator");
  expect_error(read(edit_json(legacy_, "torch.ops.aten.relu.default", "builtins.frobnicate")),
               Error::InvalidProgram, "unknown node target 'builtins.frobnicate'");
  expect_error(read(edit_json(legacy_, "\"as_ints\"", "\"as_intz\"")), Error::InvalidProgram,
               "unknown argument kind 'as_intz'");
  expect_error(read(edit_json(legacy_, "{\"as_tensor\": {\"name\": \"convolution\"}}",
                              "{\"as_tensor\": {\"name\": \"nope\"}}")),
               Error::InvalidProgram, "refers to 'nope'");
  expect_error(read(edit_json(archive_, "\"major\": 8", "\"major\": 9")), Error::NotSupported,
               "schema_version 9");
}

TEST_F(BadInputTest, VerifierCatchesArity) {
  expect_error(
      read(edit_json(
          legacy_,
          ", {\"as_tensor\": {\"name\": \"_native_batch_norm_legit_no_training_unused_2\"}}", "")),
      Error::InvalidProgram, "returns 3");
  expect_error(
      read(edit_json(
          legacy_,
          "{\"name\": \"weight\", \"arg\": {\"as_tensor\": {\"name\": \"p_conv_weight\"}}}, ", "")),
      Error::InvalidProgram, "required argument 'weight'");
}

TEST_F(BadInputTest, NonFiniteFloatsAndUnknownKeysAreAccepted) {
  for (const char* inf : {"Infinity", "\"Infinity\""}) {
    auto g = read(edit_json(legacy_, "\"as_float\": 1e-05", std::string("\"as_float\": ") + inf));
    ASSERT_TRUE(g.ok()) << format_error(g.error());
    const Node& bn = g->nodes()[1];
    ASSERT_NE(bn.find_input("eps"), nullptr);
    EXPECT_TRUE(std::isinf(bn.find_input("eps")->arg.f));
  }
  auto nan = read(edit_json(archive_, "\"as_float\": 0.1", "\"as_float\": NaN"));
  ASSERT_TRUE(nan.ok()) << format_error(nan.error());
  EXPECT_TRUE(std::isnan(nan->nodes()[1].find_input("momentum")->arg.f));
  auto extra =
      read(edit_json(legacy_, "{\"target\":", "{\"future_key\": [1, {\"x\": null}], \"target\":"));
  EXPECT_TRUE(extra.ok()) << format_error(extra.error());
}

}  // namespace
}  // namespace ember::aot
