// load_program: the demo bytecode verifier and decoder (see bytecode_program.h and
// FORMAT.md). Checks run in file order: header, slot table, instructions, outputs.
#include "backends/demo/runtime/bytecode_program.h"

#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::backends::demo {
namespace {

using runtime::Error;
using runtime::fail;

struct Header {
  uint16_t num_inputs, num_outputs, num_slots, num_instructions;
  uint32_t num_constants;
};

Error check_header(const uint8_t* blob, size_t size, Header* h) {
  if (size < kHeaderSize) {
    return fail(Error::InvalidProgram,
                "demo bytecode: blob of %zu bytes is shorter than the %zu-byte header", size,
                kHeaderSize);
  }
  if (std::memcmp(blob + kOffMagic, kMagic, 4) != 0) {
    return fail(Error::DelegateInvalidCompatibility,
                "demo bytecode: magic %02x%02x%02x%02x is not 'EDMO'", blob[0], blob[1], blob[2],
                blob[3]);
  }
  const uint16_t version = read_u16(blob + kOffVersion);
  if (version != kVersion) {
    return fail(Error::DelegateInvalidCompatibility,
                "demo bytecode: version %u, this runtime reads version %u", version, kVersion);
  }
  const uint16_t header_size = read_u16(blob + kOffHeaderSize);
  if (header_size != kHeaderSize) {
    return fail(Error::InvalidProgram, "demo bytecode: header_size %u, expected %zu",
                header_size, kHeaderSize);
  }
  const uint32_t total = read_u32(blob + kOffTotalSize);
  if (total != size) {
    return fail(Error::InvalidProgram, "demo bytecode: total_size field %u, blob has %zu bytes",
                total, size);
  }
  if (read_u32(blob + kOffReserved) != 0) {
    return fail(Error::InvalidProgram, "demo bytecode: reserved header field is %u, expected 0",
                read_u32(blob + kOffReserved));
  }
  h->num_inputs = read_u16(blob + kOffNumInputs);
  h->num_outputs = read_u16(blob + kOffNumOutputs);
  h->num_slots = read_u16(blob + kOffNumSlots);
  h->num_instructions = read_u16(blob + kOffNumInstructions);
  h->num_constants = read_u32(blob + kOffNumConstants);
  if (h->num_slots > kMaxSlots || h->num_instructions > kMaxInstructions) {
    return fail(Error::InvalidProgram,
                "demo bytecode: %u slots / %u instructions, limits are %zu / %zu", h->num_slots,
                h->num_instructions, kMaxSlots, kMaxInstructions);
  }
  if (h->num_outputs == 0 || size_t{h->num_inputs} + h->num_outputs > h->num_slots) {
    return fail(Error::InvalidProgram,
                "demo bytecode: %u inputs + %u outputs need 1+ outputs and at most num_slots %u",
                h->num_inputs, h->num_outputs, h->num_slots);
  }
  const uint64_t expected = uint64_t{kHeaderSize} + uint64_t{kSlotSize} * h->num_slots +
                            uint64_t{kInstructionSize} * h->num_instructions +
                            uint64_t{4} * h->num_constants;
  if (expected != size) {
    return fail(Error::InvalidProgram,
                "demo bytecode: sections need %llu bytes (%u slots, %u instructions, %u "
                "constants), blob has %zu",
                static_cast<unsigned long long>(expected), h->num_slots, h->num_instructions,
                h->num_constants, size);
  }
  const uint32_t stored = read_u32(blob + kOffChecksum);
  const uint32_t actual = fnv1a32(blob + kHeaderSize, size - kHeaderSize);
  if (stored != actual) {
    return fail(Error::InvalidProgram, "demo bytecode: checksum 0x%08x, bytes hash to 0x%08x",
                stored, actual);
  }
  return Error::Ok;
}

SlotKind expected_kind(size_t i, const Header& h) {
  if (i < h.num_inputs) return SlotKind::Input;
  if (i < size_t{h.num_inputs} + h.num_outputs) return SlotKind::Output;
  return SlotKind::Scratch;  // or kConstant
}

Error decode_slot(const uint8_t* p, size_t i, const Header& h, const LoadOptions& options,
                  DemoSlot* slot, uint32_t* constant_offset) {
  const uint8_t kind = p[kSlotOffKind];
  const SlotKind want = expected_kind(i, h);
  const bool kind_ok = want == SlotKind::Scratch
                           ? (kind == uint8_t(SlotKind::Scratch) ||
                              kind == uint8_t(SlotKind::Constant))
                           : kind == uint8_t(want);
  if (!kind_ok) {
    return fail(Error::InvalidProgram, "demo bytecode: slot %zu has kind %u, expected %s", i,
                kind, want == SlotKind::Scratch ? "2 (scratch) or 3 (constant)"
                      : want == SlotKind::Input ? "0 (input)" : "1 (output)");
  }
  slot->kind = static_cast<SlotKind>(kind);
  if (p[kSlotOffDtype] != kDtypeFloat32) {
    return fail(Error::InvalidProgram, "demo bytecode: slot %zu has dtype %u, only 6 (float32)",
                i, p[kSlotOffDtype]);
  }
  slot->rank = p[kSlotOffRank];
  if (slot->rank > kMaxRank || p[kSlotOffReserved] != 0) {
    return fail(Error::InvalidProgram, "demo bytecode: slot %zu has rank %u (max %zu), reserved %u",
                i, slot->rank, kMaxRank, p[kSlotOffReserved]);
  }
  uint64_t numel = 1;
  uint64_t span = 1;
  const uint64_t limit = options.max_numel != 0 ? options.max_numel : kMaxSlotNumel;
  for (size_t d = 0; d < kMaxRank; ++d) {
    const uint32_t s = read_u32(p + kSlotOffSizes + 4 * d);
    if (d >= slot->rank) {
      if (s != 0) {
        return fail(Error::InvalidProgram, "demo bytecode: slot %zu size[%zu] = %u past rank %u",
                    i, d, s, slot->rank);
      }
      continue;
    }
    if (s > kMaxSlotNumel) {
      return fail(Error::InvalidProgram, "demo bytecode: slot %zu size[%zu] = %u too large", i, d, s);
    }
    slot->sizes[d] = static_cast<int32_t>(s);
    numel *= s;
    span *= s == 0 ? 1 : s;  // bounds every stride too, even when a size is 0
    if (span > kMaxSlotNumel) {
      return fail(Error::InvalidProgram,
                  "demo bytecode: slot %zu: the product of its nonzero sizes exceeds %llu", i,
                  static_cast<unsigned long long>(kMaxSlotNumel));
    }
  }
  if (numel > limit) {
    return fail(Error::InvalidArgument,
                "demo bytecode: slot %zu has %llu elements, compile spec max_numel is %llu", i,
                static_cast<unsigned long long>(numel), static_cast<unsigned long long>(limit));
  }
  slot->numel = static_cast<size_t>(numel);
  *constant_offset = read_u32(p + kSlotOffConstant);
  if (slot->kind == SlotKind::Constant) {
    if (uint64_t{*constant_offset} + numel > h.num_constants) {
      return fail(Error::InvalidProgram,
                  "demo bytecode: constant slot %zu reads [%u, %llu), the section has %u values",
                  i, *constant_offset, static_cast<unsigned long long>(*constant_offset + numel),
                  h.num_constants);
    }
  } else if (*constant_offset != 0) {
    return fail(Error::InvalidProgram,
                "demo bytecode: non-constant slot %zu has constant offset %u, expected 0", i,
                *constant_offset);
  }
  return Error::Ok;
}

bool same_shape(const DemoSlot& x, const DemoSlot& y) {
  if (x.rank != y.rank) return false;
  for (size_t d = 0; d < x.rank; ++d) {
    if (x.sizes[d] != y.sizes[d]) return false;
  }
  return true;
}

Error check_shapes(size_t k, const DemoInstruction& in, const DemoSlot* slots) {
  const DemoSlot& dst = slots[in.dst];
  const DemoSlot& a = slots[in.a];
  const char* name = op_name(in.op);
  switch (op_class(in.op)) {
    case OpClass::Binary: {
      const DemoSlot& b = slots[in.b];
      const bool a_ok = same_shape(a, dst) || a.numel == 1;
      const bool b_ok = same_shape(b, dst) || b.numel == 1;
      if (!a_ok || !b_ok) {
        return fail(Error::InvalidProgram,
                    "demo bytecode: instruction %zu (%s): operands of %zu and %zu elements do "
                    "not match the destination's shape (%zu elements) and are not scalars",
                    k, name, a.numel, b.numel, dst.numel);
      }
      return Error::Ok;
    }
    case OpClass::Matmul: {
      const DemoSlot& b = slots[in.b];
      if (a.rank != 2 || b.rank != 2 || dst.rank != 2 || a.sizes[1] != b.sizes[0] ||
          dst.sizes[0] != a.sizes[0] || dst.sizes[1] != b.sizes[1]) {
        return fail(Error::InvalidProgram,
                    "demo bytecode: instruction %zu (mm): shapes [%d,%d] @ [%d,%d] -> [%d,%d] do "
                    "not form a matrix product (all rank 2 needed)",
                    k, a.sizes[0], a.sizes[1], b.sizes[0], b.sizes[1], dst.sizes[0], dst.sizes[1]);
      }
      if (in.dst == in.a || in.dst == in.b) {
        return fail(Error::InvalidProgram,
                    "demo bytecode: instruction %zu (mm): destination slot %u is also an operand",
                    k, in.dst);
      }
      return Error::Ok;
    }
    case OpClass::Unary:
      if (!same_shape(a, dst)) {
        return fail(Error::InvalidProgram,
                    "demo bytecode: instruction %zu (%s): operand and destination shapes differ",
                    k, name);
      }
      return Error::Ok;
    case OpClass::Invalid:
      break;
  }
  return fail(Error::InvalidProgram, "demo bytecode: instruction %zu has unknown op code 0x%02x",
              k, in.op);
}

Error decode_instruction(const uint8_t* p, size_t k, const DemoSlot* slots, size_t num_slots,
                         bool* written, DemoInstruction* in) {
  in->op = p[0];
  const OpClass cls = op_class(in->op);
  if (cls == OpClass::Invalid || p[1] != 0) {
    return fail(Error::InvalidProgram,
                "demo bytecode: instruction %zu has op code 0x%02x / flags %u (unknown op or "
                "nonzero flags)",
                k, in->op, p[1]);
  }
  in->dst = read_u16(p + 2);
  in->a = read_u16(p + 4);
  in->b = read_u16(p + 6);
  const bool unary = cls == OpClass::Unary;
  if (in->dst >= num_slots || in->a >= num_slots ||
      (unary ? in->b != kNoOperand : in->b >= num_slots)) {
    return fail(Error::InvalidProgram,
                "demo bytecode: instruction %zu (%s): slots dst=%u a=%u b=%u, there are %zu "
                "slots%s",
                k, op_name(in->op), in->dst, in->a, in->b, num_slots,
                unary ? " and b must be 0xffff" : "");
  }
  const SlotKind dk = slots[in->dst].kind;
  if (dk != SlotKind::Output && dk != SlotKind::Scratch) {
    return fail(Error::InvalidProgram,
                "demo bytecode: instruction %zu (%s) writes slot %u, an input or constant", k,
                op_name(in->op), in->dst);
  }
  const uint16_t operands[2] = {in->a, in->b};
  for (uint16_t s : operands) {
    if (s == kNoOperand) continue;
    if (!written[s]) {
      return fail(Error::InvalidProgram,
                  "demo bytecode: instruction %zu (%s) reads slot %u before anything writes it",
                  k, op_name(in->op), s);
    }
  }
  EMBER_TRY(check_shapes(k, *in, slots));
  written[in->dst] = true;
  return Error::Ok;
}

}  // namespace

runtime::Result<DemoProgram*> load_program(const uint8_t* blob, size_t size,
                                           runtime::MemoryAllocator* allocator,
                                           const LoadOptions& options) {
  if (blob == nullptr) size = 0;
  Header h{};
  EMBER_TRY(check_header(blob, size, &h));
  auto* program = allocator->allocate_instance<DemoProgram>();
  auto* slots = allocator->allocate_list<DemoSlot>(h.num_slots);
  auto* instructions = allocator->allocate_list<DemoInstruction>(h.num_instructions);
  auto* data = allocator->allocate_list<float*>(h.num_slots);
  auto* written = allocator->allocate_list<bool>(h.num_slots);
  auto* constants = allocator->allocate_list<float>(h.num_constants);
  if (program == nullptr || (h.num_slots > 0 && (slots == nullptr || data == nullptr ||
                                                 written == nullptr)) ||
      (h.num_instructions > 0 && instructions == nullptr) ||
      (h.num_constants > 0 && constants == nullptr)) {
    return fail(Error::DelegateMemoryAllocationFailed,
                "demo bytecode: runtime allocator too small for %u slots, %u instructions, %u "
                "constants",
                h.num_slots, h.num_instructions, h.num_constants);
  }
  const uint8_t* slot_bytes = blob + kHeaderSize;
  const uint8_t* code = slot_bytes + kSlotSize * h.num_slots;
  const uint8_t* constant_bytes = code + kInstructionSize * h.num_instructions;
  if (h.num_constants > 0) std::memcpy(constants, constant_bytes, 4 * size_t{h.num_constants});
  for (size_t i = 0; i < h.num_slots; ++i) {
    new (&slots[i]) DemoSlot();
    uint32_t offset = 0;
    EMBER_TRY(decode_slot(slot_bytes + kSlotSize * i, i, h, options, &slots[i], &offset));
    written[i] = slots[i].kind == SlotKind::Input || slots[i].kind == SlotKind::Constant;
    data[i] = slots[i].kind == SlotKind::Constant ? constants + offset : nullptr;
  }
  for (size_t k = 0; k < h.num_instructions; ++k) {
    new (&instructions[k]) DemoInstruction();
    EMBER_TRY(decode_instruction(code + kInstructionSize * k, k, slots, h.num_slots, written,
                                 &instructions[k]));
  }
  for (size_t i = h.num_inputs; i < size_t{h.num_inputs} + h.num_outputs; ++i) {
    if (!written[i]) {
      return fail(Error::InvalidProgram, "demo bytecode: output slot %zu is never written", i);
    }
  }
  for (size_t i = 0; i < h.num_slots; ++i) {
    if (slots[i].kind != SlotKind::Scratch) continue;
    data[i] = allocator->allocate_list<float>(slots[i].numel);
    if (data[i] == nullptr) {
      return fail(Error::DelegateMemoryAllocationFailed,
                  "demo bytecode: runtime allocator too small for scratch slot %zu (%zu floats)",
                  i, slots[i].numel);
    }
  }
  program->num_inputs = h.num_inputs;
  program->num_outputs = h.num_outputs;
  program->num_slots = h.num_slots;
  program->num_instructions = h.num_instructions;
  program->slots = slots;
  program->instructions = instructions;
  program->data = data;
  return program;
}

}  // namespace ember::backends::demo
