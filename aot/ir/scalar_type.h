// Element types of AoT tensors, numbered with ExecuTorch's ScalarType codes.
//
// The IR uses the codes of the .pte schema (pte-format.md §1.6, the same as c10), so
// the emitter writes them unchanged. The torch.export serializer numbers dtypes
// differently (pt2-format.md §2.7); pt2_scalar_type() converts at the frontend.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aot/ir/error.h"

namespace ember::aot {

enum class ScalarType : int8_t {
  kByte = 0,
  kChar = 1,
  kShort = 2,
  kInt = 3,
  kLong = 4,
  kHalf = 5,
  kFloat = 6,
  kDouble = 7,
  kComplexHalf = 8,
  kComplexFloat = 9,
  kComplexDouble = 10,
  kBool = 11,
  kQInt8 = 12,
  kQUInt8 = 13,
  kQInt32 = 14,
  kBFloat16 = 15,
  kFloat8e5m2 = 23,
  kFloat8e4m3fn = 24,
  kFloat8e5m2fnuz = 25,
  kFloat8e4m3fnuz = 26,
  kUInt16 = 27,
  kUInt32 = 28,
  kUInt64 = 29,
  kFloat8e8m0fnu = 44,  // c10 code; no .pte code yet
  kUndefined = -1,
};

// Bytes per element, 0 for kUndefined / unknown codes.
size_t element_size(ScalarType t);
// Short torch-style name: "f32", "i64", "bool", "bf16", "u8", ...
const char* to_string(ScalarType t);
// torch-style long name used by manifests and messages: "float32", "int64", ...
const char* torch_name(ScalarType t);

// Converts a torch.export serializer dtype code (BYTE=1 ... UINT64=35) to ScalarType.
// Unknown codes (including 0 = UNKNOWN) give kInvalidType naming the code.
Result<ScalarType> pt2_scalar_type(int64_t serializer_code);

}  // namespace ember::aot
