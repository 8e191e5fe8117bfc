// BytecodeWriter: assembles a demo bytecode blob (backends/demo/FORMAT.md) from slots and
// instructions, filling in the header, section sizes and checksum. The AoT compiler
// (demo_compiler.h) drives it; it does no validation beyond the format's hard limits --
// the runtime verifier is the authority, and the compiler only emits what it accepts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/error.h"
#include "backends/demo/runtime/bytecode_format.h"

namespace ember::backends::demo {

class BytecodeWriter {
 public:
  // Adds a slot of `kind` and static `sizes`; returns its index. Input slots must all be
  // added first, then outputs, then scratch/constant slots (the format's position rule).
  uint16_t add_slot(SlotKind kind, const std::vector<int64_t>& sizes);
  // A constant slot holding `values` (numel of sizes).
  uint16_t add_constant(const std::vector<int64_t>& sizes, const std::vector<float>& values);
  void add_instruction(OpCode op, uint16_t dst, uint16_t a, uint16_t b = kNoOperand);

  // The blob; InvalidArgument when a count exceeds the format's limits.
  aot::Result<std::vector<uint8_t>> finish() const;

 private:
  std::vector<uint8_t> slots_;
  std::vector<uint8_t> code_;
  std::vector<float> constants_;
  size_t num_slots_ = 0;
  size_t num_instructions_ = 0;
  size_t num_inputs_ = 0;
  size_t num_outputs_ = 0;
};

// A readable listing of a blob ("slot 0: input f32[2, 2]" / "0: mm s4 <- s0, s1"), or the
// verifier-independent reason it cannot be read. For printing DelegatedModules.
std::string disassemble(const std::vector<uint8_t>& blob);

}  // namespace ember::backends::demo
