// ScalarType: element types of tensors, with ExecuTorch's numeric codes (the .pte
// wire values, pte-format.md section 1.6), their sizes and printable names. The one
// ScalarType of Ember: the AoT toolchain uses it too (aot/ir/scalar_type.h adds its
// torch.export conversions), with two codes a .pte never carries: Undefined (-1) and
// c10's Float8_e8m0fnu (44).
#pragma once

#include <cstddef>
#include <cstdint>

namespace ember::runtime {

enum class ScalarType : int8_t {
  Byte = 0,     // uint8
  Char = 1,     // int8
  Short = 2,    // int16
  Int = 3,      // int32
  Long = 4,     // int64
  Half = 5,     // float16
  Float = 6,    // float32
  Double = 7,   // float64
  ComplexHalf = 8,
  ComplexFloat = 9,
  ComplexDouble = 10,
  Bool = 11,
  QInt8 = 12,
  QUInt8 = 13,
  QInt32 = 14,
  BFloat16 = 15,
  QUInt4x2 = 16,
  QUInt2x4 = 17,
  Bits1x8 = 18,
  Bits2x4 = 19,
  Bits4x2 = 20,
  Bits8 = 21,
  Bits16 = 22,
  Float8_e5m2 = 23,
  Float8_e4m3fn = 24,
  Float8_e5m2fnuz = 25,
  Float8_e4m3fnuz = 26,
  UInt16 = 27,
  UInt32 = 28,
  UInt64 = 29,
  Float8_e8m0fnu = 44,  // c10 code; no .pte code yet (AoT only)
  Undefined = -1,       // no type (AoT only)
};

constexpr int kNumScalarTypes = 30;

// True for the .pte codes 0..29 (not Float8_e8m0fnu or Undefined).
bool is_valid(ScalarType type);

// Bytes per element (1 for Float8_e8m0fnu); 0 for Undefined and invalid codes. Inline:
// kernels ask it on every call.
constexpr size_t element_size(ScalarType type) {
  // Bytes of the .pte codes 0..29, in code order.
  constexpr unsigned char kSizes[kNumScalarTypes] = {1, 1, 2, 4, 8, 2, 4, 8, 4, 8, 16, 1, 1, 1, 4,
                                                     2, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1, 1, 2, 4, 8};
  const int code = static_cast<int>(type);
  if (code >= 0 && code < kNumScalarTypes) return kSizes[code];
  return type == ScalarType::Float8_e8m0fnu ? 1 : 0;
}

// PyTorch-style name: "float32", "int64", "bool", "bfloat16", "float8_e8m0fnu", ...;
// "undefined" for Undefined, "invalid" for other codes.
const char* scalar_type_name(ScalarType type);

// Float, Double, Half, BFloat16 (and the float8 types).
bool is_floating_point(ScalarType type);

// Byte, Char, Short, Int, Long, UInt16/32/64 (not Bool); includes Bool if `include_bool`.
bool is_integral(ScalarType type, bool include_bool);

// The value range of a quantized storage dtype (Byte, Char, Short, Int): what PyTorch's
// quant_min/quant_max may span. False for other types.
bool quantized_storage_range(ScalarType type, int64_t* min, int64_t* max);

}  // namespace ember::runtime
