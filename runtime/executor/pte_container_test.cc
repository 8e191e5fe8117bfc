// PteContainer on hand-built bytes: the eh00 header (absent, 24 and 32 bytes long,
// truncated, too short a length), the layout checks against the file size
// (program_size and segment_base_offset outside their ranges, segments running
// past the end, overflowing sizes), the identifier and the verifier, segment
// ranges (out of range, past the end, overflowing, empty, no segment region),
// named data lookup, and every upstream .pte of ../shared/fixtures. Expected
// offsets are worked out by hand from the layout rules of pte-format.md 2.1-2.2
// (header at 8, program padded to 128 before the segments).
#include "runtime/executor/pte_container.h"

#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

#include "runtime/core/diagnostics.h"
#include "runtime/executor/testing/program_builder.h"
#include "schema/program_generated.h"
#include "tests/support/shared_fixtures.h"

namespace ember::testing {
namespace {

using runtime::Error;
using runtime::PteContainer;
using runtime::PteExtendedHeader;
using runtime::PteLayout;
using runtime::PteVerification;

std::string message() { return runtime::last_error_message(); }

void put_u32(std::vector<uint8_t>* b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) (*b)[at + i] = uint8_t(v >> (8 * i));
}
void put_u64(std::vector<uint8_t>* b, size_t at, uint64_t v) {
  for (int i = 0; i < 8; ++i) (*b)[at + i] = uint8_t(v >> (8 * i));
}

// 64 head bytes: root 0x40, "ET12", "eh00", length, program_size, segment base,
// segment data size.
std::vector<uint8_t> head(uint32_t length, uint64_t program_size, uint64_t base,
                          uint64_t data_size) {
  std::vector<uint8_t> b(64, 0);
  put_u32(&b, 0, 0x40);
  std::memcpy(b.data() + 4, "ET12", 4);
  std::memcpy(b.data() + 8, "eh00", 4);
  put_u32(&b, 12, length);
  put_u64(&b, 16, program_size);
  put_u64(&b, 24, base);
  put_u64(&b, 32, data_size);
  return b;
}

Error layout_error(const std::vector<uint8_t>& bytes, uint64_t file_size) {
  return PteLayout::parse(bytes.data(), bytes.size(), file_size).error();
}

TEST(PteExtendedHeaderTest, AbsentIsNotFound) {
  std::vector<uint8_t> b = head(32, 1000, 1024, 10);
  std::memcpy(b.data() + 8, "eh01", 4);
  EXPECT_EQ(PteExtendedHeader::parse(b.data(), b.size()).error(), Error::NotFound);
  EXPECT_EQ(PteExtendedHeader::parse(b.data(), 11).error(),
            Error::NotFound);  // no room for a magic
}

TEST(PteExtendedHeaderTest, ReadsBothLengths) {
  auto h32 = PteExtendedHeader::parse(head(32, 1040, 1152, 4).data(), 64);
  ASSERT_TRUE(h32.ok());
  EXPECT_EQ(h32->length, 32u);
  EXPECT_EQ(h32->program_size, 1040u);
  EXPECT_EQ(h32->segment_base_offset, 1152u);
  EXPECT_EQ(h32->segment_data_size, 4u);
  auto h24 = PteExtendedHeader::parse(head(24, 1040, 1152, 4).data(), 64);
  ASSERT_TRUE(h24.ok());
  EXPECT_EQ(h24->segment_data_size, 0u);  // not part of a 24-byte header
}

TEST(PteExtendedHeaderTest, TruncatedOrTooShortIsInvalid) {
  const std::vector<uint8_t> b = head(32, 1040, 1152, 4);
  EXPECT_EQ(PteExtendedHeader::parse(b.data(), 20).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("extended header truncated"), std::string::npos) << message();
  EXPECT_EQ(PteExtendedHeader::parse(b.data(), 36).error(),
            Error::InvalidProgram);  // length 32, 28 given
  EXPECT_EQ(PteExtendedHeader::parse(head(16, 1040, 1152, 4).data(), 64).error(),
            Error::InvalidProgram);
  EXPECT_NE(message().find("length 16 is below the minimum 24"), std::string::npos) << message();
}

TEST(PteLayoutTest, WithoutHeaderTheWholeFileIsTheProgram) {
  std::vector<uint8_t> b = head(32, 0, 0, 0);
  std::memcpy(b.data() + 8, "\0\0\0\0", 4);
  auto layout = PteLayout::parse(b.data(), b.size(), 5000);
  ASSERT_TRUE(layout.ok()) << message();
  EXPECT_FALSE(layout->has_extended_header);
  EXPECT_FALSE(layout->has_segments());
  EXPECT_EQ(layout->program_size, 5000u);
  EXPECT_EQ(layout->file_size, 5000u);
}

TEST(PteLayoutTest, ReadsAndChecksTheHeader) {
  auto layout = PteLayout::parse(head(32, 1040, 1152, 4).data(), 64, 1156);
  ASSERT_TRUE(layout.ok()) << message();
  EXPECT_TRUE(layout->has_extended_header);
  EXPECT_TRUE(layout->has_segments());
  EXPECT_EQ(layout->program_size, 1040u);
  EXPECT_EQ(layout->segment_base_offset, 1152u);
  EXPECT_EQ(layout->header.segment_data_size, 4u);
}

TEST(PteLayoutTest, TruncatedFileIsInvalid) {
  const std::vector<uint8_t> b = head(32, 1040, 1152, 4);
  EXPECT_EQ(layout_error(std::vector<uint8_t>(b.begin(), b.begin() + 7), 7), Error::InvalidProgram);
  EXPECT_NE(message().find("too short for a program"), std::string::npos) << message();
  EXPECT_EQ(layout_error(std::vector<uint8_t>(b.begin(), b.begin() + 30), 30),
            Error::InvalidProgram);
}

TEST(PteLayoutTest, OffsetsPastTheEndAreInvalid) {
  EXPECT_EQ(layout_error(head(32, 2000, 0, 0), 1156),
            Error::InvalidProgram);  // program_size > file
  EXPECT_NE(message().find("program_size 2000 outside [40, 1156]"), std::string::npos) << message();
  EXPECT_EQ(layout_error(head(32, 39, 0, 0), 1156), Error::InvalidProgram);  // inside the header
  EXPECT_EQ(layout_error(head(32, 1040, 1024, 4), 1156),
            Error::InvalidProgram);  // base inside the program
  EXPECT_NE(message().find("segment_base_offset 1024"), std::string::npos) << message();
  EXPECT_EQ(layout_error(head(32, 1040, 1280, 0), 1156),
            Error::InvalidProgram);  // base past the file
  EXPECT_EQ(layout_error(head(32, 1040, 1152, 5), 1156),
            Error::InvalidProgram);  // data past the file
  EXPECT_NE(message().find("file truncated: segments need 5 bytes from offset 1152"),
            std::string::npos)
      << message();
}

TEST(PteLayoutTest, OverflowingSizesAreInvalid) {
  EXPECT_EQ(layout_error(head(32, UINT64_MAX, 0, 0), 1156), Error::InvalidProgram);
  EXPECT_EQ(layout_error(head(UINT32_MAX, 1040, 0, 0), 1156), Error::InvalidProgram);
  EXPECT_EQ(layout_error(head(32, 1040, UINT64_MAX, 0), 1156), Error::InvalidProgram);
  EXPECT_EQ(layout_error(head(32, 1040, 1152, UINT64_MAX), 1156), Error::InvalidProgram);
  EXPECT_EQ(layout_error(head(32, 1040, 1152, UINT64_MAX - 1151), 1156), Error::InvalidProgram);
}

// The add program with two segments (3 and 5 bytes) and named data "w0" -> 0,
// "w1" -> 1, "gone" -> 7.
std::vector<uint8_t> program_with_segments() {
  auto program = make_add_program();
  for (auto [key, index] : {std::pair<const char*, uint32_t>{"w0", 0}, {"w1", 1}, {"gone", 7}}) {
    auto named = std::make_unique<fbs::NamedDataT>();
    named->key = key;
    named->segment_index = index;
    program->named_data.push_back(std::move(named));
  }
  return serialize(*program, {{1, 2, 3}, {4, 5, 6, 7, 8}});
}

TEST(PteContainerTest, OpensAWholeFile) {
  const AlignedBytes file(program_with_segments());
  auto c = PteContainer::open(file.data(), file.size());
  ASSERT_TRUE(c.ok()) << message();
  ASSERT_NE(c->program_root(), nullptr);
  EXPECT_EQ(static_cast<const fbs::Program*>(c->program_root())->execution_plan()->size(), 1u);
  EXPECT_TRUE(c->has_file_data());
  const uint64_t base = c->layout().segment_base_offset;
  EXPECT_EQ(base % 128, 0u);
  EXPECT_GE(base, c->layout().program_size);
  EXPECT_EQ(file.size(), base + 128 + 5);  // segment 1 starts at the next 128 boundary
  ASSERT_EQ(c->num_segments(), 2u);
  auto s1 = c->segment(1);
  ASSERT_TRUE(s1.ok()) << message();
  EXPECT_EQ(s1->offset, base + 128);
  EXPECT_EQ(s1->size, 5u);
  auto d0 = c->segment_data(0);
  ASSERT_TRUE(d0.ok()) << message();
  EXPECT_EQ(std::vector<uint8_t>(d0->begin(), d0->end()), std::vector<uint8_t>({1, 2, 3}));
}

TEST(PteContainerTest, BadIdentifierIsInvalid) {
  std::vector<uint8_t> bytes = program_with_segments();
  std::memcpy(bytes.data() + 4, "XY99", 4);
  const AlignedBytes file(bytes);
  EXPECT_EQ(PteContainer::open(file.data(), file.size()).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("bad file identifier 'XY99', expected 'ET12'"), std::string::npos)
      << message();
}

TEST(PteContainerTest, CheckIdentifierAloneTellsForeignFromCorrupt) {
  std::vector<uint8_t> bytes = program_with_segments();
  EXPECT_EQ(PteContainer::check_identifier(bytes.data(), bytes.size()), Error::Ok);
  bytes[0] = 0xFF;  // a root offset far outside the program: corrupt, but still ET12
  bytes[1] = 0xFF;
  EXPECT_EQ(PteContainer::check_identifier(bytes.data(), bytes.size()), Error::Ok);
  EXPECT_EQ(PteContainer::check_identifier(bytes.data(), 7), Error::InvalidProgram);
  EXPECT_NE(message().find("7-byte program"), std::string::npos) << message();
  std::memcpy(bytes.data() + 4, "PK\x03\x04", 4);
  EXPECT_EQ(PteContainer::check_identifier(bytes.data(), bytes.size()), Error::InvalidProgram);
  EXPECT_NE(message().find("bad file identifier 'PK?" "?'"), std::string::npos) << message();
  std::memcpy(bytes.data() + 4, "BP08", 4);  // a bundled program: said so (issue #16)
  EXPECT_EQ(PteContainer::check_identifier(bytes.data(), bytes.size()), Error::InvalidProgram);
  EXPECT_NE(message().find("bad file identifier 'BP08', expected 'ET12': this is a bundled program (.bpte)"),
            std::string::npos)
      << message();
}

TEST(PteContainerTest, TruncatedFilesAreInvalid) {
  const std::vector<uint8_t> good = program_with_segments();
  for (size_t n : {size_t(0), size_t(7), size_t(12), size_t(39), size_t(63), good.size() / 2,
                   good.size() - 1}) {
    const AlignedBytes cut(std::vector<uint8_t>(good.begin(), good.begin() + n));
    EXPECT_EQ(PteContainer::open(cut.data(), cut.size()).error(), Error::InvalidProgram) << n;
  }
  const std::vector<uint8_t> plain =
      serialize(*make_add_program());  // no header: the verifier sees the cut
  const AlignedBytes cut(std::vector<uint8_t>(plain.begin(), plain.end() - 8));
  EXPECT_EQ(PteContainer::open(cut.data(), cut.size()).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("failed verification"), std::string::npos) << message();
}

TEST(PteContainerTest, MinimalVerificationChecksTheRootOffset) {
  std::vector<uint8_t> bytes = serialize(*make_add_program());
  for (size_t i = 12; i < bytes.size(); i += 7) bytes[i] ^= 0x5a;  // garbage behind the root offset
  const AlignedBytes garbage(bytes);
  EXPECT_EQ(PteContainer::open(garbage.data(), garbage.size()).error(), Error::InvalidProgram);
  EXPECT_TRUE(PteContainer::open(garbage.data(), garbage.size(), PteVerification::Minimal).ok());
  put_u32(&bytes, 0, uint32_t(bytes.size()));
  const AlignedBytes bad_root(bytes);
  EXPECT_EQ(PteContainer::open(bad_root.data(), bad_root.size(), PteVerification::Minimal).error(),
            Error::InvalidProgram);
  EXPECT_NE(message().find("root offset"), std::string::npos) << message();
}

TEST(PteContainerTest, OpenProgramNeedsTheWholeProgram) {
  const AlignedBytes file(program_with_segments());
  auto layout = PteLayout::parse(file.data(), 64, file.size());
  ASSERT_TRUE(layout.ok());
  EXPECT_EQ(
      PteContainer::open_program(*layout, file.data(), size_t(layout->program_size) - 1).error(),
      Error::InvalidArgument);
  auto c = PteContainer::open_program(*layout, file.data(), size_t(layout->program_size));
  ASSERT_TRUE(c.ok()) << message();
  EXPECT_FALSE(c->has_file_data());
  EXPECT_TRUE(c->segment(0).ok());
  EXPECT_EQ(c->segment_data(0).error(), Error::InvalidState);  // the segments were not given
}

TEST(PteContainerTest, SegmentsOutOfRangeAreInvalid) {
  const AlignedBytes file(program_with_segments());
  auto c = PteContainer::open(file.data(), file.size());
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->segment(2).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("segment index 2 out of range (program has 2)"), std::string::npos)
      << message();
  EXPECT_EQ(c->segment_data(SIZE_MAX).error(), Error::InvalidProgram);
}

// Segments written as given: `offset`/`size` of segment 0 over an 8-byte region.
Error segment_error(uint64_t offset, uint64_t size) {
  auto program = make_add_program();
  auto seg = std::make_unique<fbs::DataSegmentT>();
  seg->offset = offset;
  seg->size = size;
  program->segments.push_back(std::move(seg));
  const AlignedBytes file(serialize_with_region(*program, std::vector<uint8_t>(8, 0)));
  auto c = PteContainer::open(file.data(), file.size());
  if (!c.ok()) return Error::Internal;
  return c->segment_data(0).error();
}

TEST(PteContainerTest, SegmentsPastTheEndAreInvalid) {
  EXPECT_EQ(segment_error(0, 8), Error::Ok);
  EXPECT_EQ(segment_error(4, 4), Error::Ok);
  EXPECT_EQ(segment_error(4, 5), Error::InvalidProgram);
  EXPECT_NE(message().find("segment 0 (offset 4, 5 bytes) ends past the"), std::string::npos)
      << message();
  EXPECT_EQ(segment_error(9, 1), Error::InvalidProgram);
  EXPECT_EQ(segment_error(UINT64_MAX - 10, 1), Error::InvalidProgram);  // base + offset overflows
  EXPECT_NE(message().find("overflows"), std::string::npos) << message();
  EXPECT_EQ(segment_error(2, UINT64_MAX), Error::InvalidProgram);  // size overflows
  EXPECT_EQ(segment_error(UINT64_MAX, 0), Error::Ok);              // empty: nothing to read
}

TEST(PteContainerTest, SegmentsNeedASegmentRegion) {
  auto program = make_add_program();
  auto seg = std::make_unique<fbs::DataSegmentT>();
  seg->size = 4;
  program->segments.push_back(std::move(seg));
  program->segments.push_back(std::make_unique<fbs::DataSegmentT>());  // empty
  const AlignedBytes file(serialize(*program));  // no segments given: no header
  auto c = PteContainer::open(file.data(), file.size());
  ASSERT_TRUE(c.ok()) << message();
  EXPECT_FALSE(c->layout().has_extended_header);
  EXPECT_EQ(c->segment(0).error(), Error::InvalidProgram);
  EXPECT_NE(message().find("segment 0 has 4 bytes but the file has no extended header"),
            std::string::npos)
      << message();
  auto empty = c->segment_data(1);
  ASSERT_TRUE(empty.ok());
  EXPECT_EQ(empty->size(), 0u);
}

TEST(PteContainerTest, NamedDataLookup) {
  const AlignedBytes file(program_with_segments());
  auto c = PteContainer::open(file.data(), file.size());
  ASSERT_TRUE(c.ok());
  ASSERT_EQ(c->num_named_data(), 3u);
  EXPECT_EQ(*c->named_data_key(0), "w0");
  EXPECT_EQ(*c->named_data_key(2), "gone");
  EXPECT_EQ(c->named_data_key(3).error(), Error::InvalidArgument);
  auto w1 = c->named_data_segment("w1");
  ASSERT_TRUE(w1.ok());
  EXPECT_EQ(*w1, 1u);
  auto bytes = c->segment_data(*w1);
  ASSERT_TRUE(bytes.ok());
  EXPECT_EQ(std::vector<uint8_t>(bytes->begin(), bytes->end()),
            std::vector<uint8_t>({4, 5, 6, 7, 8}));
  EXPECT_EQ(c->named_data_segment("w").error(), Error::NotFound);
  EXPECT_NE(message().find("named data key 'w' not found"), std::string::npos) << message();
  auto gone = c->named_data_segment("gone");
  ASSERT_TRUE(gone.ok());
  EXPECT_EQ(c->segment_data(*gone).error(), Error::InvalidProgram);
}

// Every upstream program opens with the verifier, every segment and named data
// entry resolves inside its file; the Arduino AddModel's layout is the worked
// example of pte-format.md 2.1 (1156 bytes: program 1040, segments at 1152, 4 bytes).
TEST(PteContainerTest, UpstreamCorpusOpens) {
  if (shared_dir().empty()) GTEST_SKIP() << skip_message();
  const std::string dir = shared_dir() + "/fixtures/executorch-pte";
  const std::vector<std::string> names = list_files(dir, ".pte");
  ASSERT_GE(names.size(), 40u);
  for (const std::string& name : names) {
    std::vector<uint8_t> bytes;
    ASSERT_TRUE(read_file(dir + "/" + name, &bytes)) << name;
    const AlignedBytes file(bytes);
    auto c = PteContainer::open(file.data(), file.size());
    ASSERT_TRUE(c.ok()) << name << ": " << message();
    for (size_t i = 0; i < c->num_segments(); ++i) {
      EXPECT_TRUE(c->segment_data(i).ok()) << name << " segment " << i << ": " << message();
    }
    for (size_t i = 0; i < c->num_named_data(); ++i) {
      auto key = c->named_data_key(i);
      ASSERT_TRUE(key.ok());
      auto index = c->named_data_segment(*key);
      ASSERT_TRUE(index.ok()) << name << ": " << message();
      EXPECT_TRUE(c->segment_data(*index).ok()) << name << " named data " << i << ": " << message();
    }
    if (name == "pytorch__executorch__arduino_AddModel_model.pte") {
      EXPECT_EQ(c->layout().file_size, 1156u);
      EXPECT_EQ(c->layout().header.length, 32u);
      EXPECT_EQ(c->layout().program_size, 1040u);
      EXPECT_EQ(c->layout().segment_base_offset, 1152u);
      EXPECT_EQ(c->layout().header.segment_data_size, 4u);
    }
  }
}

}  // namespace
}  // namespace ember::testing
