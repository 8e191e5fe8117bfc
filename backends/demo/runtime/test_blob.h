// Test-only hand assembler for demo bytecode, written from FORMAT.md with literal
// offsets (it does not use bytecode_format.h, so tests check the format as documented),
// plus a heap-backed float32 tensor for calling the backend directly.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/core/evalue.h"

namespace ember::backends::demo::testing {

class TestBlob {
 public:
  // Slots, in the order added. kind: 0 input, 1 output, 2 scratch, 3 constant.
  uint16_t input(std::vector<uint32_t> sizes) { return slot(0, sizes); }
  uint16_t output(std::vector<uint32_t> sizes) { return slot(1, sizes); }
  uint16_t scratch(std::vector<uint32_t> sizes) { return slot(2, sizes); }
  uint16_t constant(std::vector<uint32_t> sizes, const std::vector<float>& values);
  // A raw slot record (any kind/dtype/rank/sizes/offset, for bad-input tests).
  uint16_t slot(uint8_t kind, std::vector<uint32_t> sizes, uint8_t dtype = 6,
                uint32_t constant_offset = 0);
  // One instruction; b = 0xFFFF for unary ops.
  void op(uint8_t code, uint16_t dst, uint16_t a, uint16_t b = 0xFFFF, uint8_t flags = 0);

  // Header fields the tests may override (defaults: counted from the slots added).
  int num_inputs = -1;
  int num_outputs = -1;
  uint16_t version = 1;

  // The assembled blob with a correct checksum.
  std::vector<uint8_t> bytes() const;

  std::vector<uint8_t> slots_;
  std::vector<uint8_t> code_;
  std::vector<float> constants_;
  uint16_t num_slots_ = 0;
  uint16_t num_instructions_ = 0;
  uint16_t inputs_seen_ = 0;
  uint16_t outputs_seen_ = 0;
};

// FNV-1a 32, written out here independently of the format header.
uint32_t test_fnv1a(const uint8_t* data, size_t size);
void put_u16(std::vector<uint8_t>* out, size_t at, uint16_t v);
void put_u32(std::vector<uint8_t>* out, size_t at, uint32_t v);
// Recomputes the checksum at bytes 12..15 after a test edited the body.
void fix_checksum(std::vector<uint8_t>* blob);

// A contiguous float32 tensor with its own storage, wrapped in an EValue.
class HeapTensor {
 public:
  HeapTensor(std::vector<int32_t> sizes, std::vector<float> values = {},
             runtime::ShapeDynamism dynamism = runtime::ShapeDynamism::Static);
  HeapTensor(const HeapTensor&) = delete;
  HeapTensor& operator=(const HeapTensor&) = delete;
  const float* f() const { return data.data(); }

  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  std::vector<int32_t> strides;
  std::vector<float> data;
  runtime::Tensor tensor;
  runtime::EValue value;
};

}  // namespace ember::backends::demo::testing
