// DemoProgram: a verified, decoded demo bytecode blob (FORMAT.md), and the verifier that
// builds it. load_program() checks everything that depends only on the blob -- magic,
// version, sizes, checksum, every slot (kind, dtype, rank, sizes, constant range), every
// instruction (op code, operand indices, operand kinds, shapes, def-before-use) and that
// every output is written -- so the interpreter (interpreter.h) only checks the
// caller's tensors. All memory comes from the given allocator (the method allocator at
// init): the decoded tables, the constants (copied, so the blob can be freed), the
// scratch slots and the per-slot data pointers. Bad bytes give a named error with a
// recorded message (runtime/core/diagnostics.h), never a crash.
#pragma once

#include <cstddef>
#include <cstdint>

#include "backends/demo/runtime/bytecode_format.h"
#include "runtime/core/memory_allocator.h"
#include "runtime/core/result.h"

namespace ember::backends::demo {

struct DemoSlot {
  SlotKind kind = SlotKind::Scratch;
  uint8_t rank = 0;
  int32_t sizes[kMaxRank] = {};
  size_t numel = 1;
};

struct DemoInstruction {
  uint8_t op = 0;
  uint16_t dst = 0;
  uint16_t a = 0;
  uint16_t b = kNoOperand;
};

struct DemoProgram {
  uint16_t num_inputs = 0;
  uint16_t num_outputs = 0;
  uint16_t num_slots = 0;
  uint16_t num_instructions = 0;
  const DemoSlot* slots = nullptr;
  const DemoInstruction* instructions = nullptr;
  // Per-slot float data: constants and scratch fixed at load, inputs and outputs set by
  // the interpreter on each run (so one DemoProgram runs one call at a time).
  float** data = nullptr;
};

struct LoadOptions {
  // Largest element count any slot may have (compile spec "max_numel"); 0 = format limit.
  uint64_t max_numel = 0;
};

// Verifies `size` bytes at `blob` and decodes them into memory from `allocator`.
// Errors: DelegateInvalidCompatibility (wrong magic or version), InvalidProgram (any
// malformed field), InvalidArgument (a slot above options.max_numel),
// DelegateMemoryAllocationFailed (allocator too small).
runtime::Result<DemoProgram*> load_program(const uint8_t* blob, size_t size,
                                           runtime::MemoryAllocator* allocator,
                                           const LoadOptions& options = {});

}  // namespace ember::backends::demo
