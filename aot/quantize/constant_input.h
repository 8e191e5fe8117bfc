// add_constant_input: a new lifted tensor constant (a graph input of kind TensorConstant with
// its bytes, placed before the user inputs as torch.export orders them). The quantize stage
// adds folded and int8 weights, their scales and zero points this way.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/ir/graph.h"

namespace ember::aot {

Result<ValueId> add_constant_input(Graph& graph, const std::string& base, ScalarType dtype,
                                   const std::vector<int64_t>& sizes, std::vector<uint8_t> bytes,
                                   const std::string& source);

}  // namespace ember::aot
