// The demo backend's bytecode: layout constants, op codes and the checksum, shared by
// the runtime verifier/interpreter and the AoT writer (backends/demo/aot). The format is
// described in backends/demo/FORMAT.md; this header is its single source of numbers.
// Everything is little-endian. Header-only, no dependencies, no allocation.
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::backends::demo {

// "EDMO": Ember DeMO bytecode.
constexpr uint8_t kMagic[4] = {'E', 'D', 'M', 'O'};
// Bumped on any incompatible layout change; init rejects other versions.
constexpr uint16_t kVersion = 1;

constexpr size_t kHeaderSize = 32;
constexpr size_t kSlotSize = 32;
constexpr size_t kInstructionSize = 8;

// Header field offsets.
constexpr size_t kOffMagic = 0;            // u8[4]
constexpr size_t kOffVersion = 4;          // u16
constexpr size_t kOffHeaderSize = 6;       // u16, == kHeaderSize
constexpr size_t kOffTotalSize = 8;        // u32, whole blob
constexpr size_t kOffChecksum = 12;        // u32, FNV-1a of bytes [kHeaderSize, total)
constexpr size_t kOffNumInputs = 16;       // u16
constexpr size_t kOffNumOutputs = 18;      // u16
constexpr size_t kOffNumSlots = 20;        // u16
constexpr size_t kOffNumInstructions = 22;  // u16
constexpr size_t kOffNumConstants = 24;    // u32, float32 values in the constant section
constexpr size_t kOffReserved = 28;        // u32, 0

// Slot field offsets (inside one kSlotSize record).
constexpr size_t kSlotOffKind = 0;      // u8 SlotKind
constexpr size_t kSlotOffDtype = 1;     // u8 ScalarType code, 6 = float32
constexpr size_t kSlotOffRank = 2;      // u8 <= kMaxRank
constexpr size_t kSlotOffReserved = 3;  // u8, 0
constexpr size_t kSlotOffSizes = 4;     // u32[kMaxRank], unused entries 0
constexpr size_t kSlotOffConstant = 28;  // u32 offset (in floats) of a constant slot, else 0

// Limits (checked by the verifier).
constexpr size_t kMaxRank = 6;
constexpr size_t kMaxSlots = 1024;
constexpr size_t kMaxInstructions = 4096;
constexpr uint64_t kMaxSlotNumel = uint64_t{1} << 26;
constexpr uint16_t kNoOperand = 0xFFFF;
constexpr uint8_t kDtypeFloat32 = 6;  // ExecuTorch ScalarType::Float

enum class SlotKind : uint8_t {
  Input = 0,     // delegate argument i (slots [0, num_inputs))
  Output = 1,    // delegate argument num_inputs + j (the next num_outputs slots)
  Scratch = 2,   // intermediate, memory from the runtime allocator at init
  Constant = 3,  // read-only, data in the constant section
};

enum class OpCode : uint8_t {
  // Elementwise binary: dst = a op b; each operand has dst's shape or one element.
  Add = 0x01,
  Sub = 0x02,
  Mul = 0x03,
  Div = 0x04,
  Maximum = 0x05,
  Minimum = 0x06,
  // Matrix product: dst[m,n] = a[m,k] @ b[k,n]; dst may not be a or b.
  Mm = 0x10,
  // Elementwise unary: dst = f(a), same shape; b is NoOperand.
  Copy = 0x20,
  Neg = 0x21,
  Relu = 0x22,
  Sigmoid = 0x23,
  Sin = 0x24,
  Cos = 0x25,
  Tanh = 0x26,
  Exp = 0x27,
};

enum class OpClass : uint8_t { Invalid, Binary, Matmul, Unary };

constexpr OpClass op_class(uint8_t code) {
  if (code >= 0x01 && code <= 0x06) return OpClass::Binary;
  if (code == 0x10) return OpClass::Matmul;
  if (code >= 0x20 && code <= 0x27) return OpClass::Unary;
  return OpClass::Invalid;
}

// "add", "mm", ... ; "invalid" for unknown codes.
constexpr const char* op_name(uint8_t code) {
  switch (code) {
    case 0x01: return "add";
    case 0x02: return "sub";
    case 0x03: return "mul";
    case 0x04: return "div";
    case 0x05: return "maximum";
    case 0x06: return "minimum";
    case 0x10: return "mm";
    case 0x20: return "copy";
    case 0x21: return "neg";
    case 0x22: return "relu";
    case 0x23: return "sigmoid";
    case 0x24: return "sin";
    case 0x25: return "cos";
    case 0x26: return "tanh";
    case 0x27: return "exp";
    default: return "invalid";
  }
}

// 32-bit FNV-1a over `size` bytes.
inline uint32_t fnv1a32(const uint8_t* data, size_t size) {
  uint32_t h = 2166136261u;
  for (size_t i = 0; i < size; ++i) {
    h ^= data[i];
    h *= 16777619u;
  }
  return h;
}

inline uint16_t read_u16(const uint8_t* p) {
  return static_cast<uint16_t>(p[0] | (p[1] << 8));
}
inline uint32_t read_u32(const uint8_t* p) {
  return static_cast<uint32_t>(p[0]) | (static_cast<uint32_t>(p[1]) << 8) |
         (static_cast<uint32_t>(p[2]) << 16) | (static_cast<uint32_t>(p[3]) << 24);
}

}  // namespace ember::backends::demo
