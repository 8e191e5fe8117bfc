// BundledProgram (the .bpte reader) on upstream's corpus file (skipped without
// ../shared) and on files built here with the generated builder: what it yields, and the
// named error for each malformed shape (truncated, foreign identifier, a .pte, bad tensor
// data length, bad dim order, unknown value kind, no inner program, no method name).
#include "runtime/bundled/bundled_program.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "schema/bundled_program_generated.h"
#include "tests/support/shared_fixtures.h"

namespace ember::runtime {
namespace {

namespace bfb = ::bundled_program_flatbuffer;

// Facts from shared/fixtures/executorch-pte/CATALOG.md (decoded with upstream's schema).
TEST(BundledProgram, ReadsTheCorpusFile) {
  const std::string dir = testing::shared_dir();
  if (dir.empty()) GTEST_SKIP() << testing::skip_message();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(testing::read_file(
      dir + "/fixtures/executorch-pte/pytorch__executorch__bundled_program.bpte", &bytes));
  ASSERT_EQ(bytes.size(), 4608u);
  EXPECT_TRUE(BundledProgram::has_identifier(bytes.data(), bytes.size()));
  auto b = BundledProgram::open(bytes.data(), bytes.size());
  ASSERT_TRUE(b.ok()) << last_error_message();
  EXPECT_EQ(b->version(), 2u);
  EXPECT_EQ(b->program().size(), 1696u);
  EXPECT_EQ(std::memcmp(b->program().data() + 4, "ET12", 4), 0);
  ASSERT_EQ(b->num_suites(), 1u);
  EXPECT_STREQ(b->method_name(0), "forward");
  ASSERT_EQ(b->num_cases(0), 10u);
  auto found = b->find_suite("forward");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(*found, 0u);
  EXPECT_EQ(b->find_suite("missing").error(), Error::NotFound);
  for (size_t c = 0; c < 10; ++c) {
    ASSERT_EQ(b->num_inputs(0, c), 2u);
    ASSERT_EQ(b->num_expected_outputs(0, c), 1u);
    const BundledValue out = b->expected_output(0, c, 0);
    ASSERT_EQ(out.kind, BundledValueKind::Tensor);
    EXPECT_EQ(out.dtype, ScalarType::Int);
    ASSERT_EQ(out.sizes.size(), 2u);
    EXPECT_EQ(out.sizes[0], 2);
    ASSERT_EQ(out.data.size(), 16u);
    for (size_t i = 0; i < 4; ++i) {
      int32_t v;
      std::memcpy(&v, out.data.data() + 4 * i, 4);
      EXPECT_EQ(v, 2) << "case " << c;  // 3 * 0 + 2 + 0
    }
  }
}

TEST(BundledProgram, CorpusFileTruncatedIsANamedError) {
  const std::string dir = testing::shared_dir();
  if (dir.empty()) GTEST_SKIP() << testing::skip_message();
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(testing::read_file(
      dir + "/fixtures/executorch-pte/pytorch__executorch__bundled_program.bpte", &bytes));
  for (size_t size : {size_t(0), size_t(7), size_t(64), bytes.size() / 2, bytes.size() - 1}) {
    auto b = BundledProgram::open(bytes.data(), size);
    ASSERT_FALSE(b.ok()) << size;
    EXPECT_EQ(b.error(), Error::InvalidProgram);
    EXPECT_NE(std::string(last_error_message()).find("bundled program"), std::string::npos)
        << last_error_message();
  }
}

// A file with one suite "forward", one case: an INT[2] input and `expected` as output.
struct Built {
  std::vector<uint8_t> bytes;
};

Built build(const std::vector<int32_t>& sizes, std::vector<uint8_t> data,
            std::vector<uint8_t> dim_order, int union_type = 1, bool with_program = true,
            bool with_name = true) {
  flatbuffers::FlatBufferBuilder fbb;
  std::vector<uint8_t> program(64, 0);
  std::memcpy(program.data() + 4, "ET12", 4);
  auto tensor = bfb::CreateTensorDirect(fbb, int8_t(ScalarType::Int), &sizes, &data, &dim_order);
  auto value = bfb::CreateValue(fbb, static_cast<bfb::ValueUnion>(union_type), tensor.Union());
  auto scalar = bfb::CreateValue(fbb, bfb::ValueUnion::Int, bfb::CreateInt(fbb, 5).Union());
  std::vector<flatbuffers::Offset<bfb::Value>> inputs = {value, scalar};
  std::vector<flatbuffers::Offset<bfb::Value>> outputs = {value};
  std::vector<flatbuffers::Offset<bfb::BundledMethodTestCase>> cases = {
      bfb::CreateBundledMethodTestCaseDirect(fbb, &inputs, &outputs)};
  std::vector<flatbuffers::Offset<bfb::BundledMethodTestSuite>> suites = {
      bfb::CreateBundledMethodTestSuiteDirect(fbb, with_name ? "forward" : nullptr, &cases)};
  bfb::FinishBundledProgramBuffer(
      fbb, bfb::CreateBundledProgramDirect(fbb, 2, &suites, with_program ? &program : nullptr));
  return Built{
      std::vector<uint8_t>(fbb.GetBufferPointer(), fbb.GetBufferPointer() + fbb.GetSize())};
}

std::string open_error(const Built& b) {
  auto r = BundledProgram::open(b.bytes.data(), b.bytes.size());
  if (r.ok()) return "ok";
  return std::string(error_name(r.error())) + ": " + last_error_message();
}

TEST(BundledProgram, ReadsABuiltFile) {
  Built b = build({2}, std::vector<uint8_t>(8, 1), {0});
  auto r = BundledProgram::open(b.bytes.data(), b.bytes.size());
  ASSERT_TRUE(r.ok()) << last_error_message();
  EXPECT_EQ(r->program().size(), 64u);
  const BundledValue scalar = r->input(0, 0, 1);
  EXPECT_EQ(scalar.kind, BundledValueKind::Int);
  EXPECT_EQ(scalar.int_value, 5);
  EXPECT_EQ(bundled_numel(r->input(0, 0, 0)), 2u);
}

TEST(BundledProgram, MalformedFilesGiveNamedErrors) {
  EXPECT_EQ(open_error(build({2}, std::vector<uint8_t>(7, 1), {0})),
            "InvalidProgram: bundled program: method 'forward' case 0 input 0: int32 tensor of 2 "
            "elements needs 8 "
            "data bytes, has 7");
  EXPECT_EQ(open_error(build({2, 2}, std::vector<uint8_t>(16, 1), {1, 1})),
            "InvalidProgram: bundled program: method 'forward' case 0 input 0: dim_order is not a "
            "permutation of "
            "the dims");
  EXPECT_EQ(open_error(build({-2}, {}, {0})),
            "InvalidProgram: bundled program: method 'forward' case 0 input 0: negative size");
  // The FlatBuffers verifier lets unknown union members through (forward compatibility).
  EXPECT_EQ(open_error(build({2}, std::vector<uint8_t>(8, 1), {0}, /*union_type=*/9)),
            "InvalidProgram: bundled program: method 'forward' case 0 input 0: unknown value kind "
            "(not Tensor, "
            "Int, Bool or Double)");
  EXPECT_EQ(open_error(build({2}, std::vector<uint8_t>(8, 1), {0}, 1, /*with_program=*/false)),
            "InvalidProgram: bundled program: no inner program (the 'program' bytes are empty)");
  EXPECT_EQ(open_error(build({2}, std::vector<uint8_t>(8, 1), {0}, 1, true, /*with_name=*/false)),
            "InvalidProgram: bundled program: test suite 0 has no method name");
  Built good = build({2}, std::vector<uint8_t>(8, 1), {0});
  Built wrong_id = good;
  std::memcpy(wrong_id.bytes.data() + 4, "XY\x01Z", 4);
  EXPECT_EQ(open_error(wrong_id),
            "InvalidProgram: bundled program: bad file identifier 'XY?Z', expected 'BP08'");
  Built pte = good;
  std::memcpy(pte.bytes.data() + 4, "ET12", 4);
  EXPECT_EQ(open_error(pte),
            "InvalidProgram: this is a program (.pte, identifier 'ET12'), not a bundled program "
            "(.bpte, 'BP08')");
  Built truncated = good;
  truncated.bytes.resize(good.bytes.size() - 8);
  EXPECT_EQ(open_error(truncated), "InvalidProgram: bundled program: the BP08 FlatBuffer (" +
                                       std::to_string(truncated.bytes.size()) +
                                       " bytes) failed verification (truncated or corrupt)");
}

// Reads every value the accessors hand out, touching every byte of tensor data.
size_t walk(const BundledProgram& b) {
  size_t sum = b.program().size() + b.version();
  for (size_t s = 0; s < b.num_suites(); ++s) {
    sum += std::strlen(b.method_name(s));
    for (size_t c = 0; c < b.num_cases(s); ++c) {
      for (int role = 0; role < 2; ++role) {
        const size_t n = role == 0 ? b.num_inputs(s, c) : b.num_expected_outputs(s, c);
        for (size_t i = 0; i < n; ++i) {
          const BundledValue v = role == 0 ? b.input(s, c, i) : b.expected_output(s, c, i);
          for (uint8_t byte : v.data) sum += byte;
          for (int32_t size : v.sizes) sum += size_t(size);
          for (uint8_t d : v.dim_order) sum += d;
          sum += bundled_numel(v) + size_t(v.int_value) + v.bool_value;
        }
      }
    }
  }
  return sum;
}

// 20,000 deterministic mutations (1-4 random bytes each, some truncations) of a built
// file: open() either fails with InvalidProgram and a message, or everything it accepted
// can be walked (ASan builds catch any read out of bounds).
TEST(BundledProgram, MutatedFilesFailByNameOrReadSafely) {
  const Built good = build({2}, std::vector<uint8_t>(8, 1), {0});
  uint32_t state = 12345;
  auto next = [&state]() {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  size_t accepted = 0, rejected = 0;
  for (int round = 0; round < 20000; ++round) {
    std::vector<uint8_t> bytes = good.bytes;
    const int flips = 1 + int(next() % 4);
    for (int f = 0; f < flips; ++f) bytes[next() % bytes.size()] = uint8_t(next());
    if (round % 10 == 0) bytes.resize(next() % bytes.size());
    auto r = BundledProgram::open(bytes.data(), bytes.size());
    if (r.ok()) {
      ++accepted;
      EXPECT_GT(walk(*r), 0u);
    } else {
      ++rejected;
      ASSERT_EQ(r.error(), Error::InvalidProgram);
      ASSERT_NE(std::string(last_error_message()).find("program"), std::string::npos)
          << last_error_message();
    }
  }
  EXPECT_GT(accepted, 0u);
  EXPECT_GT(rejected, 0u);
}

}  // namespace
}  // namespace ember::runtime
