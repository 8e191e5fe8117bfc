// Byte-level facts of written .pte files, derived by hand from pte-format.md
// sections 2.1-2.2: identifier, when the eh00 header is present, its fields,
// segment placement and padding, the constant segment layout, delegate and
// named-data segments, and that removing the header leaves a valid FlatBuffer.
#include <gtest/gtest.h>

#include <cstring>

#include "aot/emit/pte_writer.h"
#include "aot/emit/testing/test_programs.h"
#include "schema/program_generated.h"

namespace ember::aot {
namespace {

namespace fb = executorch_flatbuffer;
using namespace emit_test;

std::vector<uint8_t> write_or_die(const EmitProgram& program,
                                  const EmitOptions& options = EmitOptions()) {
  std::vector<uint8_t> bytes;
  Error s = write_pte(program, &bytes, options);
  EXPECT_EQ(s, Error::Ok) << format_error(s);
  return bytes;
}

bool verifies(const std::vector<uint8_t>& bytes, size_t size) {
  flatbuffers::Verifier verifier(bytes.data(), size);
  return fb::VerifyProgramBuffer(verifier);
}

// No constants, no delegates: segments = [{0,0}], constant_segment {0,[0]}, and
// no extended header because the segment data is empty (like upstream's add.pte).
TEST(EmitContainer, AddWithoutSegmentDataHasNoHeader) {
  EmitProgram program;
  program.methods = {add_method()};
  std::vector<uint8_t> bytes = write_or_die(program);
  ASSERT_GE(bytes.size(), 64u);
  EXPECT_EQ(std::memcmp(bytes.data() + 4, "ET12", 4), 0);
  EXPECT_NE(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
  ASSERT_TRUE(verifies(bytes, bytes.size()));
  const fb::Program* p = fb::GetProgram(bytes.data());
  ASSERT_NE(p->segments(), nullptr);
  ASSERT_EQ(p->segments()->size(), 1u);
  EXPECT_EQ(p->segments()->Get(0)->offset(), 0u);
  EXPECT_EQ(p->segments()->Get(0)->size(), 0u);
  ASSERT_NE(p->constant_segment(), nullptr);
  EXPECT_EQ(p->constant_segment()->segment_index(), 0u);
  ASSERT_EQ(p->constant_segment()->offsets()->size(), 1u);
  EXPECT_EQ(p->constant_segment()->offsets()->Get(0), 0u);
  EXPECT_EQ(p->version(), 0u);
}

// Constants c0 = float[3] (12 B), c1 = float[2] (8 B), c2 = c0's bytes again.
// Expected: dedup -> entries [placeholder, c0, c1]; c0 at 0, padded to 16, c1 at
// 16, no padding after the last: segment size 24; data_buffer_idx c0/c2 -> 1, c1 -> 2.
// Header: length 32, program_size = 32 + FlatBuffer size, base = align(size, 128),
// segment_data_size 24, file size = base + 24.
TEST(EmitContainer, ConstantSegmentLayoutAndHeader) {
  EmitProgram program;
  program.constants = {float_bytes({1, 2, 3}), float_bytes({4, 5}), float_bytes({1, 2, 3})};
  EmitMethod m;
  m.name = "forward";
  for (int c : {0, 1, 2}) {
    EmitTensor t;
    t.sizes = {c == 1 ? 2 : 3};
    t.dim_order = {0};
    t.constant_index = c;
    m.values.push_back(EmitValue::of_tensor(t));
  }
  m.outputs = {0, 1, 2};
  program.methods = {m};
  std::vector<uint8_t> bytes = write_or_die(program);

  ASSERT_EQ(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
  EXPECT_EQ(u32_at(bytes, 12), 32u);
  uint64_t program_size = u64_at(bytes, 16);
  uint64_t base = u64_at(bytes, 24);
  EXPECT_EQ(base, (program_size + 127) / 128 * 128);
  EXPECT_EQ(u64_at(bytes, 32), 24u);
  EXPECT_EQ(bytes.size(), base + 24);
  for (uint64_t i = program_size; i < base; ++i) ASSERT_EQ(bytes[i], 0) << "padding byte " << i;
  std::vector<uint8_t> expected = float_bytes({1, 2, 3});
  expected.resize(16, 0);
  std::vector<uint8_t> c1 = float_bytes({4, 5});
  expected.insert(expected.end(), c1.begin(), c1.end());
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + base, bytes.end()), expected);

  // The header is exactly 32 inserted bytes: removing them leaves a FlatBuffer
  // that verifies and says the same as the file read in place.
  std::vector<uint8_t> plain = strip_header(bytes, 32, program_size);
  EXPECT_EQ(plain.size() + 32, program_size);
  ASSERT_TRUE(verifies(plain, plain.size()));
  ASSERT_TRUE(verifies(bytes, program_size));
  const fb::Program* p = fb::GetProgram(bytes.data());
  const auto* offsets = p->constant_segment()->offsets();
  ASSERT_EQ(offsets->size(), 3u);
  EXPECT_EQ(offsets->Get(0), 0u);
  EXPECT_EQ(offsets->Get(1), 0u);
  EXPECT_EQ(offsets->Get(2), 16u);
  ASSERT_EQ(p->segments()->size(), 1u);
  EXPECT_EQ(p->segments()->Get(0)->size(), 24u);
  EXPECT_EQ(p->constant_buffer()->size(), 0u);
  const auto* values = p->execution_plan()->Get(0)->values();
  EXPECT_EQ(values->Get(0)->val_as_Tensor()->data_buffer_idx(), 1u);
  EXPECT_EQ(values->Get(1)->val_as_Tensor()->data_buffer_idx(), 2u);
  EXPECT_EQ(values->Get(2)->val_as_Tensor()->data_buffer_idx(), 1u);
  EXPECT_EQ(values->Get(0)->val_as_Tensor()->allocation_info(), nullptr);
}

// Delegates in method order: A (100 B), A again, empty, B (5 B). Expected:
// segments [const {0,0}, A {0,100}, B {128,5}] (A at align(0,128), B at
// align(100,128)); processed A -> {SEGMENT,1} twice, empty -> {INLINE,0},
// B -> {SEGMENT,2}; segment_data_size = 133.
TEST(EmitContainer, DelegateBlobsGoToDeduplicatedSegments) {
  std::vector<uint8_t> a(100), b{9, 8, 7, 6, 5};
  for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(i + 1);
  EmitMethod m = add_method();
  m.delegates = {{"DemoBackend", a, {{"mode", {1, 2}}}},
                 {"DemoBackend", a, {}},
                 {"EmptyBackend", {}, {}},
                 {"DemoBackend", b, {}}};
  m.instructions.push_back(EmitInstruction::delegate(3, {0, 3}));
  EmitProgram program;
  program.methods = {m};
  std::vector<uint8_t> bytes = write_or_die(program);
  ASSERT_EQ(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
  uint64_t base = u64_at(bytes, 24);
  EXPECT_EQ(u64_at(bytes, 32), 133u);
  EXPECT_EQ(bytes.size(), base + 133);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + base, bytes.begin() + base + 100), a);
  for (uint64_t i = base + 100; i < base + 128; ++i) ASSERT_EQ(bytes[i], 0);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + base + 128, bytes.end()), b);

  ASSERT_TRUE(verifies(bytes, u64_at(bytes, 16)));
  const fb::Program* p = fb::GetProgram(bytes.data());
  ASSERT_EQ(p->segments()->size(), 3u);
  EXPECT_EQ(p->segments()->Get(1)->offset(), 0u);
  EXPECT_EQ(p->segments()->Get(1)->size(), 100u);
  EXPECT_EQ(p->segments()->Get(2)->offset(), 128u);
  EXPECT_EQ(p->segments()->Get(2)->size(), 5u);
  const auto* delegates = p->execution_plan()->Get(0)->delegates();
  ASSERT_EQ(delegates->size(), 4u);
  std::vector<std::pair<fb::DataLocation, uint32_t>> want{{fb::DataLocation::SEGMENT, 1},
                                                          {fb::DataLocation::SEGMENT, 1},
                                                          {fb::DataLocation::INLINE, 0},
                                                          {fb::DataLocation::SEGMENT, 2}};
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(delegates->Get(i)->processed()->location(), want[i].first) << i;
    EXPECT_EQ(delegates->Get(i)->processed()->index(), want[i].second) << i;
  }
  EXPECT_EQ(delegates->Get(0)->id()->str(), "DemoBackend");
  ASSERT_EQ(delegates->Get(0)->compile_specs()->size(), 1u);
  EXPECT_EQ(delegates->Get(0)->compile_specs()->Get(0)->key()->str(), "mode");
  EXPECT_EQ(delegates->Get(0)->compile_specs()->Get(0)->value()->size(), 2u);
  ASSERT_EQ(p->backend_delegate_data()->size(), 1u);
  EXPECT_EQ(p->backend_delegate_data()->Get(0)->data()->size(), 0u);
}

// Named data: "w1" and "w1_copy" share bytes X (12 B, alignments 16 and 64),
// "w2" has Y (3 B, alignment 256). Expected: X once at lcm(128,64) -> offset 0,
// Y at align(12, lcm(128,256)=256) = 256; keys -> segments 1, 1, 2; data size 259.
TEST(EmitContainer, NamedDataSegmentsAreAlignedAndShared) {
  std::vector<uint8_t> x = float_bytes({1, 2, 3}), y{1, 2, 3};
  EmitProgram program;
  program.methods = {add_method()};
  program.named_data = {{"w1", x, 16}, {"w1_copy", x, 64}, {"w2", y, 256}};
  std::vector<uint8_t> bytes = write_or_die(program);
  uint64_t base = u64_at(bytes, 24);
  EXPECT_EQ(base % 128, 0u);
  EXPECT_EQ(u64_at(bytes, 32), 259u);
  ASSERT_TRUE(verifies(bytes, u64_at(bytes, 16)));
  const fb::Program* p = fb::GetProgram(bytes.data());
  ASSERT_EQ(p->segments()->size(), 3u);
  EXPECT_EQ(p->segments()->Get(1)->offset(), 0u);
  EXPECT_EQ(p->segments()->Get(2)->offset(), 256u);
  EXPECT_EQ(p->segments()->Get(2)->size(), 3u);
  ASSERT_EQ(p->named_data()->size(), 3u);
  EXPECT_EQ(p->named_data()->Get(0)->key()->str(), "w1");
  EXPECT_EQ(p->named_data()->Get(0)->segment_index(), 1u);
  EXPECT_EQ(p->named_data()->Get(1)->segment_index(), 1u);
  EXPECT_EQ(p->named_data()->Get(2)->segment_index(), 2u);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + base + 256, bytes.end()), y);
}

// Mutable initial data m0 (6 B) and m1 (4 B), concatenated without padding:
// offsets [0, 0, 6]; it is segment 1 (after the empty constant segment), size 10.
TEST(EmitContainer, MutableDataSegment) {
  EmitProgram program;
  program.mutable_data = {{1, 2, 3, 4, 5, 6}, {7, 8, 9, 10}};
  EmitMethod m;
  m.name = "forward";
  EmitTensor t0;
  t0.scalar_type = 0;  // BYTE[6]
  t0.sizes = {6};
  t0.dim_order = {0};
  t0.memory_id = 1;
  t0.mutable_data_index = 0;
  t0.fully_qualified_name = "state0";
  EmitTensor t1 = t0;
  t1.sizes = {4};
  t1.memory_offset = 16;
  t1.mutable_data_index = 1;
  t1.fully_qualified_name = "state1";
  m.values = {EmitValue::of_tensor(t0), EmitValue::of_tensor(t1)};
  m.non_const_buffer_sizes = {0, 32};
  program.methods = {m};
  std::vector<uint8_t> bytes = write_or_die(program);
  uint64_t base = u64_at(bytes, 24);
  EXPECT_EQ(u64_at(bytes, 32), 10u);
  EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + base, bytes.end()),
            (std::vector<uint8_t>{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}));
  ASSERT_TRUE(verifies(bytes, u64_at(bytes, 16)));
  const fb::Program* p = fb::GetProgram(bytes.data());
  ASSERT_NE(p->mutable_data_segments(), nullptr);
  ASSERT_EQ(p->mutable_data_segments()->size(), 1u);
  EXPECT_EQ(p->mutable_data_segments()->Get(0)->segment_index(), 1u);
  const auto* offsets = p->mutable_data_segments()->Get(0)->offsets();
  ASSERT_EQ(offsets->size(), 3u);
  EXPECT_EQ(offsets->Get(1), 0u);
  EXPECT_EQ(offsets->Get(2), 6u);
  const fb::Tensor* tensor1 = p->execution_plan()->Get(0)->values()->Get(1)->val_as_Tensor();
  EXPECT_EQ(tensor1->data_buffer_idx(), 2u);
  EXPECT_EQ(tensor1->allocation_info()->memory_offset_low(), 16u);
  EXPECT_EQ(tensor1->extra_tensor_info()->fully_qualified_name()->str(), "state1");
}

// Non-default options: constants padded to 64 (c0 12 B at 0, c1 at 64, size 72),
// segments aligned to 256 (the delegate blob at align(72, 256) = 256), and
// segment_base_offset a multiple of 256.
TEST(EmitContainer, CustomAlignments) {
  EmitProgram program;
  program.constants = {float_bytes({1, 2, 3}), float_bytes({4, 5})};
  EmitMethod m = add_method();
  for (int c : {0, 1}) {
    EmitTensor t;
    t.sizes = {c == 0 ? 3 : 2};
    t.dim_order = {0};
    t.constant_index = c;
    m.values.push_back(EmitValue::of_tensor(t));
  }
  m.delegates = {{"DemoBackend", {1, 2, 3}, {}}};
  program.methods = {m};
  EmitOptions options;
  options.segment_alignment = 256;
  options.constant_tensor_alignment = 64;
  std::vector<uint8_t> bytes = write_or_die(program, options);
  uint64_t base = u64_at(bytes, 24);
  EXPECT_EQ(base % 256, 0u);
  EXPECT_EQ(u64_at(bytes, 32), 259u);
  ASSERT_TRUE(verifies(bytes, u64_at(bytes, 16)));
  const fb::Program* p = fb::GetProgram(bytes.data());
  EXPECT_EQ(p->constant_segment()->offsets()->Get(2), 64u);
  EXPECT_EQ(p->segments()->Get(0)->size(), 72u);
  EXPECT_EQ(p->segments()->Get(1)->offset(), 256u);
  EXPECT_EQ(bytes[base + 256], 1);
}

// extract_delegate_segments = false: the blob stays INLINE, its bytes inside the
// FlatBuffer start at a 16-byte aligned file offset (force_align 16), and with no
// segment data there is no header.
TEST(EmitContainer, InlineDelegateDataIsAligned) {
  std::vector<uint8_t> blob(37);
  for (size_t i = 0; i < blob.size(); ++i) blob[i] = static_cast<uint8_t>(0xa0 + i);
  EmitMethod m = add_method();
  m.delegates = {{"DemoBackend", blob, {}}};
  EmitProgram program;
  program.methods = {m};
  EmitOptions options;
  options.extract_delegate_segments = false;
  std::vector<uint8_t> bytes = write_or_die(program, options);
  EXPECT_NE(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
  ASSERT_TRUE(verifies(bytes, bytes.size()));
  const fb::Program* p = fb::GetProgram(bytes.data());
  const auto* processed = p->execution_plan()->Get(0)->delegates()->Get(0)->processed();
  EXPECT_EQ(processed->location(), fb::DataLocation::INLINE);
  EXPECT_EQ(processed->index(), 0u);
  const auto* data = p->backend_delegate_data()->Get(0)->data();
  ASSERT_EQ(data->size(), blob.size());
  size_t file_offset = data->data() - bytes.data();
  EXPECT_EQ(file_offset % 16, 0u);
  EXPECT_EQ(
      std::vector<uint8_t>(bytes.begin() + file_offset, bytes.begin() + file_offset + blob.size()),
      blob);
}

TEST(EmitContainer, SameInputGivesIdenticalBytes) {
  EmitProgram program;
  program.constants = {float_bytes({1, 2, 3})};
  program.methods = {add_method("a"), add_method("b")};
  program.methods[1].delegates = {{"DemoBackend", {1, 2, 3}, {}}};
  program.named_data = {{"k", {5, 6}, 16}};
  std::vector<uint8_t> first = write_or_die(program);
  EmitProgram copy = program;
  std::vector<uint8_t> second = write_or_die(copy);
  EXPECT_EQ(first, second);
  EXPECT_EQ(write_or_die(program), first);
}

}  // namespace
}  // namespace ember::aot
