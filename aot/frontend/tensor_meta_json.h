// Decoding of torch.export SymInt and TensorMeta JSON into IR types.
//
// SymInt: {"as_int": n} or {"as_expr": {"expr_str": "...", "hint": {"as_int": n}}} (older
// files may give as_expr as a bare string). Symbolic values get their infix text and
// their range evaluated against the program's range constraints.
// TensorMeta: {dtype, sizes, requires_grad, device, strides, storage_offset, layout};
// torch 2.1 wraps it as {"meta": {...}}; storage_offset may be a bare int (2.1/2.2).
// Only the strided layout is accepted; the device is ignored.
#pragma once

#include <map>
#include <string>

#include "aot/frontend/json_util.h"
#include "aot/ir/sym_int.h"
#include "aot/ir/tensor_spec.h"

namespace ember::aot {

using RangeMap = std::map<std::string, SymRange>;

Result<SymInt> decode_sym_int(const Json& j, const RangeMap& ranges, const std::string& what);
Result<TensorSpec> decode_tensor_meta(const Json& j, const RangeMap& ranges,
                                        const std::string& what);

}  // namespace ember::aot
