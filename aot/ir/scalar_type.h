// Element types of AoT tensors: the runtime's ScalarType (runtime/core/scalar_type.h,
// ExecuTorch's codes), with the AoT's short names and the torch.export code mapping.
//
// The IR uses the codes of the .pte schema (pte-format.md §1.6, the same as c10), so
// the emitter writes them unchanged; the long names ("float32") are scalar_type_name(). The torch.export serializer numbers dtypes
// differently (pt2-format.md §2.7); pt2_scalar_type() converts at the frontend.
#pragma once

#include <cstddef>
#include <cstdint>

#include "aot/ir/error.h"
#include "runtime/core/scalar_type.h"

namespace ember::aot {

using runtime::element_size;
using runtime::scalar_type_name;
using runtime::ScalarType;

// Short torch-style name: "f32", "i64", "bool", "bf16", "u8", ...
const char* to_string(ScalarType t);

// Converts a torch.export serializer dtype code (BYTE=1 ... UINT64=35) to ScalarType.
// Unknown codes (including 0 = UNKNOWN) give kInvalidType naming the code.
Result<ScalarType> pt2_scalar_type(int64_t serializer_code);

}  // namespace ember::aot
