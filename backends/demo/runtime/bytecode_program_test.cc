// The demo bytecode verifier on hand-made bad blobs: every rule of FORMAT.md's
// "Verification" list has a case that breaks exactly that rule and expects the named
// error and a message naming the field. The good blob of each case loads, so each
// test can fail.
#include "backends/demo/runtime/bytecode_program.h"

#include <gtest/gtest.h>

#include <functional>
#include <string>
#include <vector>

#include "backends/demo/runtime/test_blob.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::demo::testing {
namespace {

using runtime::Error;

struct Loaded {
  Error error;
  std::string message;
  DemoProgram* program;
};

Loaded load(const std::vector<uint8_t>& blob, size_t arena = 1 << 16, LoadOptions options = {}) {
  static std::vector<uint8_t> storage;
  storage.assign(arena, 0);
  runtime::MemoryAllocator allocator(storage.data(), storage.size());
  runtime::clear_error_message();
  auto r = load_program(blob.data(), blob.size(), &allocator, options);
  return {r.error(), runtime::last_error_message(), r.ok() ? r.get() : nullptr};
}

// x[2], y[2] -> out[2] = relu(x + y) through a scratch slot; one constant slot.
TestBlob good() {
  TestBlob g;
  g.input({2});
  g.input({2});
  g.output({2});
  g.scratch({2});
  g.constant({2}, {1, 2});
  g.op(0x01, 3, 0, 1);
  g.op(0x03, 3, 3, 4);
  g.op(0x22, 2, 3);
  return g;
}

TEST(DemoBytecode, GoodBlobDecodes) {
  Loaded l = load(good().bytes());
  ASSERT_EQ(l.error, Error::Ok) << l.message;
  EXPECT_EQ(l.program->num_inputs, 2);
  EXPECT_EQ(l.program->num_outputs, 1);
  EXPECT_EQ(l.program->num_slots, 5);
  EXPECT_EQ(l.program->num_instructions, 3);
  EXPECT_EQ(l.program->slots[4].kind, SlotKind::Constant);
  EXPECT_EQ(l.program->data[4][1], 2.f);
  EXPECT_NE(l.program->data[3], nullptr);  // scratch
  EXPECT_EQ(l.program->instructions[2].op, 0x22);
  EXPECT_EQ(l.program->instructions[2].b, 0xFFFF);
}

TEST(DemoBytecode, ChecksumIsFnv1a) {
  const uint8_t a[] = {'a'};
  EXPECT_EQ(test_fnv1a(a, 1), 0xE40C292Cu);  // published FNV-1a test vector
  EXPECT_EQ(fnv1a32(a, 1), 0xE40C292Cu);
  EXPECT_EQ(fnv1a32(nullptr, 0), 0x811C9DC5u);
}

struct BadCase {
  const char* name;
  std::function<std::vector<uint8_t>()> make;
  Error error;
  const char* message_part;
};

std::vector<uint8_t> edit(std::function<void(std::vector<uint8_t>*)> f, bool fix = true) {
  std::vector<uint8_t> b = good().bytes();
  f(&b);
  if (fix) fix_checksum(&b);
  return b;
}

// Offsets: slots start at 32 (32 bytes each), instructions at 32 + 5*32 = 192.
constexpr size_t kSlot0 = 32;
constexpr size_t kCode = 192;

std::vector<BadCase> header_cases() {
  return {
      {"empty", [] { return std::vector<uint8_t>{}; }, Error::InvalidProgram, "shorter than"},
      {"short", [] { return std::vector<uint8_t>(31, 0); }, Error::InvalidProgram, "31 bytes"},
      {"magic", [] { return edit([](auto* b) { (*b)[0] = 'X'; }); },
       Error::DelegateInvalidCompatibility, "magic"},
      {"version", [] { TestBlob g = good(); g.version = 2; return g.bytes(); },
       Error::DelegateInvalidCompatibility, "version 2"},
      {"header_size", [] { return edit([](auto* b) { put_u16(b, 6, 16); }); },
       Error::InvalidProgram, "header_size 16"},
      {"total_size", [] { return edit([](auto* b) { put_u32(b, 8, 999); }); },
       Error::InvalidProgram, "total_size field 999"},
      {"truncated", [] { auto b = good().bytes(); b.pop_back(); return b; },
       Error::InvalidProgram, "total_size"},
      {"reserved", [] { return edit([](auto* b) { (*b)[28] = 1; }); }, Error::InvalidProgram,
       "reserved"},
      {"checksum", [] { return edit([](auto* b) { (*b)[kCode + 2] ^= 1; }, false); },
       Error::InvalidProgram, "checksum"},
      {"no_outputs", [] { return edit([](auto* b) { put_u16(b, 18, 0); }); },
       Error::InvalidProgram, "0 outputs"},
      {"io_exceeds_slots", [] { return edit([](auto* b) { put_u16(b, 16, 5); }); },
       Error::InvalidProgram, "5 inputs"},
      {"too_many_slots", [] { return edit([](auto* b) { put_u16(b, 20, 2000); }); },
       Error::InvalidProgram, "2000 slots"},
      {"section_sizes", [] { return edit([](auto* b) { put_u32(b, 24, 3); }); },
       Error::InvalidProgram, "sections need"},
  };
}

std::vector<BadCase> slot_cases() {
  return {
      {"input_kind", [] { return edit([](auto* b) { (*b)[kSlot0] = 1; }); },
       Error::InvalidProgram, "slot 0 has kind 1"},
      {"output_kind", [] { return edit([](auto* b) { (*b)[kSlot0 + 64] = 2; }); },
       Error::InvalidProgram, "slot 2 has kind 2"},
      {"tail_kind", [] { return edit([](auto* b) { (*b)[kSlot0 + 96] = 0; }); },
       Error::InvalidProgram, "slot 3 has kind 0"},
      {"unknown_kind", [] { return edit([](auto* b) { (*b)[kSlot0 + 96] = 9; }); },
       Error::InvalidProgram, "kind 9"},
      {"dtype", [] { return edit([](auto* b) { (*b)[kSlot0 + 1] = 7; }); },
       Error::InvalidProgram, "dtype 7"},
      {"rank", [] { return edit([](auto* b) { (*b)[kSlot0 + 2] = 7; }); },
       Error::InvalidProgram, "rank 7"},
      {"slot_reserved", [] { return edit([](auto* b) { (*b)[kSlot0 + 3] = 1; }); },
       Error::InvalidProgram, "reserved 1"},
      {"size_past_rank", [] { return edit([](auto* b) { put_u32(b, kSlot0 + 8, 3); }); },
       Error::InvalidProgram, "past rank"},
      {"huge_size", [] { return edit([](auto* b) { put_u32(b, kSlot0 + 4, 0xFFFFFFFF); }); },
       Error::InvalidProgram, "too large"},
      {"huge_numel", [] {
         TestBlob g;
         g.input({1 << 14, 1 << 14});
         g.output({1});
         return g.bytes();
       }, Error::InvalidProgram, "nonzero sizes exceeds"},
      {"huge_sizes_with_zero", [] {  // numel 0, but the strides would overflow int32
         TestBlob g;
         g.input({0, 1 << 14, 1 << 14});
         g.output({1});
         return g.bytes();
       }, Error::InvalidProgram, "nonzero sizes exceeds"},
      {"constant_range", [] { return edit([](auto* b) { put_u32(b, kSlot0 + 128 + 28, 1); }); },
       Error::InvalidProgram, "constant slot 4 reads [1, 3)"},
      {"offset_on_scratch", [] { return edit([](auto* b) { put_u32(b, kSlot0 + 96 + 28, 1); }); },
       Error::InvalidProgram, "non-constant slot 3"},
  };
}

std::vector<BadCase> instruction_cases() {
  return {
      {"opcode", [] { return edit([](auto* b) { (*b)[kCode] = 0x7F; }); },
       Error::InvalidProgram, "op code 0x7f"},
      {"flags", [] { return edit([](auto* b) { (*b)[kCode + 1] = 1; }); },
       Error::InvalidProgram, "flags 1"},
      {"dst_range", [] { return edit([](auto* b) { put_u16(b, kCode + 2, 5); }); },
       Error::InvalidProgram, "dst=5"},
      {"b_range", [] { return edit([](auto* b) { put_u16(b, kCode + 6, 0xFFFF); }); },
       Error::InvalidProgram, "b=65535"},
      {"unary_b", [] { return edit([](auto* b) { put_u16(b, kCode + 16 + 6, 0); }); },
       Error::InvalidProgram, "b must be 0xffff"},
      {"writes_input", [] { return edit([](auto* b) { put_u16(b, kCode + 2, 0); }); },
       Error::InvalidProgram, "writes slot 0, an input"},
      {"writes_constant", [] { return edit([](auto* b) { put_u16(b, kCode + 2, 4); }); },
       Error::InvalidProgram, "writes slot 4"},
      {"read_before_write", [] { return edit([](auto* b) { put_u16(b, kCode + 4, 3); }); },
       Error::InvalidProgram, "reads slot 3 before"},
      {"output_unwritten", [] { return edit([](auto* b) { put_u16(b, kCode + 16 + 2, 3); }); },
       Error::InvalidProgram, "output slot 2 is never written"},
      {"binary_shape", [] {
         TestBlob g;
         g.input({2});
         g.input({3});
         g.output({2});
         g.op(0x01, 2, 0, 1);
         return g.bytes();
       }, Error::InvalidProgram, "not scalars"},
      {"unary_shape", [] {
         TestBlob g;
         g.input({2, 1});
         g.output({2});
         g.op(0x24, 1, 0);
         return g.bytes();
       }, Error::InvalidProgram, "shapes differ"},
      {"mm_shape", [] {
         TestBlob g;
         g.input({2, 3});
         g.input({2, 3});
         g.output({2, 3});
         g.op(0x10, 2, 0, 1);
         return g.bytes();
       }, Error::InvalidProgram, "matrix product"},
      {"mm_rank", [] {
         TestBlob g;
         g.input({4});
         g.input({4});
         g.output({4});
         g.op(0x10, 2, 0, 1);
         return g.bytes();
       }, Error::InvalidProgram, "rank 2"},
      {"mm_alias", [] {
         TestBlob g;
         g.input({2, 2});
         g.output({2, 2});
         g.op(0x10, 1, 0, 0);
         g.op(0x10, 1, 1, 0);
         return g.bytes();
       }, Error::InvalidProgram, "also an operand"},
  };
}

void check_cases(const std::vector<BadCase>& cases) {
  for (const BadCase& c : cases) {
    Loaded l = load(c.make());
    EXPECT_EQ(l.error, c.error) << c.name << ": " << l.message;
    EXPECT_NE(l.message.find(c.message_part), std::string::npos)
        << c.name << ": message '" << l.message << "' lacks '" << c.message_part << "'";
    EXPECT_NE(l.message.find("demo bytecode"), std::string::npos) << c.name;
  }
}

TEST(DemoBytecode, BadHeaders) { check_cases(header_cases()); }
TEST(DemoBytecode, BadSlots) { check_cases(slot_cases()); }
TEST(DemoBytecode, BadInstructions) { check_cases(instruction_cases()); }

TEST(DemoBytecode, AllocatorTooSmall) {
  Loaded l = load(good().bytes(), 64);
  EXPECT_EQ(l.error, Error::DelegateMemoryAllocationFailed) << l.message;
  // Enough for the tables but not for the scratch slot: find the boundary by search.
  bool saw_scratch_message = false;
  for (size_t arena = 64; arena < 1024 && !saw_scratch_message; arena += 4) {
    Loaded m = load(good().bytes(), arena);
    if (m.error == Error::Ok) break;
    saw_scratch_message = m.message.find("scratch slot 3") != std::string::npos;
  }
  EXPECT_TRUE(saw_scratch_message);
}

TEST(DemoBytecode, MaxNumelOption) {
  LoadOptions options;
  options.max_numel = 1;
  Loaded l = load(good().bytes(), 1 << 16, options);
  EXPECT_EQ(l.error, Error::InvalidArgument);
  EXPECT_NE(l.message.find("max_numel is 1"), std::string::npos) << l.message;
  options.max_numel = 2;
  EXPECT_EQ(load(good().bytes(), 1 << 16, options).error, Error::Ok);
}

TEST(DemoBytecode, EveryTruncationFails) {
  const std::vector<uint8_t> blob = good().bytes();
  for (size_t n = 0; n < blob.size(); ++n) {
    std::vector<uint8_t> cut(blob.begin(), blob.begin() + static_cast<long>(n));
    EXPECT_NE(load(cut).error, Error::Ok) << "prefix of " << n << " bytes";
  }
}

}  // namespace
}  // namespace ember::backends::demo::testing
