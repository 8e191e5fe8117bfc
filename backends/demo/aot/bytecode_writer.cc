// BytecodeWriter and disassemble (see bytecode_writer.h).
#include "backends/demo/aot/bytecode_writer.h"

#include <cstring>

namespace ember::backends::demo {
namespace {

void put(std::vector<uint8_t>* out, size_t at, uint64_t v, int bytes) {
  for (int i = 0; i < bytes; ++i) (*out)[at + i] = static_cast<uint8_t>(v >> (8 * i));
}

const char* kind_name(uint8_t k) {
  switch (k) {
    case 0: return "input";
    case 1: return "output";
    case 2: return "scratch";
    case 3: return "constant";
    default: return "?";
  }
}

}  // namespace

uint16_t BytecodeWriter::add_slot(SlotKind kind, const std::vector<int64_t>& sizes) {
  std::vector<uint8_t> rec(kSlotSize, 0);
  rec[kSlotOffKind] = static_cast<uint8_t>(kind);
  rec[kSlotOffDtype] = kDtypeFloat32;
  rec[kSlotOffRank] = static_cast<uint8_t>(sizes.size());
  for (size_t d = 0; d < sizes.size() && d < kMaxRank; ++d) {
    put(&rec, kSlotOffSizes + 4 * d, static_cast<uint64_t>(sizes[d]), 4);
  }
  slots_.insert(slots_.end(), rec.begin(), rec.end());
  if (kind == SlotKind::Input) ++num_inputs_;
  if (kind == SlotKind::Output) ++num_outputs_;
  return static_cast<uint16_t>(num_slots_++);
}

uint16_t BytecodeWriter::add_constant(const std::vector<int64_t>& sizes,
                                      const std::vector<float>& values) {
  const uint16_t slot = add_slot(SlotKind::Constant, sizes);
  put(&slots_, kSlotSize * slot + kSlotOffConstant, constants_.size(), 4);
  constants_.insert(constants_.end(), values.begin(), values.end());
  return slot;
}

void BytecodeWriter::add_instruction(OpCode op, uint16_t dst, uint16_t a, uint16_t b) {
  std::vector<uint8_t> rec(kInstructionSize, 0);
  rec[0] = static_cast<uint8_t>(op);
  put(&rec, 2, dst, 2);
  put(&rec, 4, a, 2);
  put(&rec, 6, b, 2);
  code_.insert(code_.end(), rec.begin(), rec.end());
  ++num_instructions_;
}

aot::Result<std::vector<uint8_t>> BytecodeWriter::finish() const {
  if (num_slots_ > kMaxSlots || num_instructions_ > kMaxInstructions ||
      constants_.size() > 0xFFFFFFFFu / 8) {
    return aot::invalid_argument("demo bytecode: " + std::to_string(num_slots_) + " slots, " +
                                 std::to_string(num_instructions_) + " instructions exceed " +
                                 std::to_string(kMaxSlots) + " / " +
                                 std::to_string(kMaxInstructions));
  }
  std::vector<uint8_t> out(kHeaderSize, 0);
  std::memcpy(out.data() + kOffMagic, kMagic, 4);
  put(&out, kOffVersion, kVersion, 2);
  put(&out, kOffHeaderSize, kHeaderSize, 2);
  put(&out, kOffNumInputs, num_inputs_, 2);
  put(&out, kOffNumOutputs, num_outputs_, 2);
  put(&out, kOffNumSlots, num_slots_, 2);
  put(&out, kOffNumInstructions, num_instructions_, 2);
  put(&out, kOffNumConstants, constants_.size(), 4);
  out.insert(out.end(), slots_.begin(), slots_.end());
  out.insert(out.end(), code_.begin(), code_.end());
  for (float f : constants_) {
    uint32_t bits;
    std::memcpy(&bits, &f, 4);
    out.resize(out.size() + 4);
    put(&out, out.size() - 4, bits, 4);
  }
  put(&out, kOffTotalSize, out.size(), 4);
  put(&out, kOffChecksum, fnv1a32(out.data() + kHeaderSize, out.size() - kHeaderSize), 4);
  return out;
}

std::string disassemble(const std::vector<uint8_t>& blob) {
  if (blob.size() < kHeaderSize || std::memcmp(blob.data(), kMagic, 4) != 0) {
    return "(not demo bytecode)\n";
  }
  const uint8_t* p = blob.data();
  const size_t ns = read_u16(p + kOffNumSlots), ni = read_u16(p + kOffNumInstructions);
  if (kHeaderSize + kSlotSize * ns + kInstructionSize * ni > blob.size()) return "(truncated)\n";
  std::string out = "demo bytecode v" + std::to_string(read_u16(p + kOffVersion)) + ", " +
                    std::to_string(blob.size()) + " bytes, " + std::to_string(ns) + " slots, " +
                    std::to_string(ni) + " instructions\n";
  for (size_t i = 0; i < ns; ++i) {
    const uint8_t* s = p + kHeaderSize + kSlotSize * i;
    out += "  s" + std::to_string(i) + ": " + kind_name(s[kSlotOffKind]) + " f32[";
    for (size_t d = 0; d < s[kSlotOffRank] && d < kMaxRank; ++d) {
      out += (d ? ", " : "") + std::to_string(read_u32(s + kSlotOffSizes + 4 * d));
    }
    out += "]\n";
  }
  for (size_t k = 0; k < ni; ++k) {
    const uint8_t* c = p + kHeaderSize + kSlotSize * ns + kInstructionSize * k;
    out += "  " + std::to_string(k) + ": " + op_name(c[0]) + " s" + std::to_string(read_u16(c + 2)) +
           " <- s" + std::to_string(read_u16(c + 4));
    if (read_u16(c + 6) != kNoOperand) out += ", s" + std::to_string(read_u16(c + 6));
    out += "\n";
  }
  return out;
}

}  // namespace ember::backends::demo
