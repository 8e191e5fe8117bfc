// Helpers shared by the passes that rewrite linear layers over constant weights
// (TiedLinearPass, QuantizeLinearPass, QuantizeEmbeddingPass).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "aot/ir/graph.h"
#include "runtime/core/result.h"

namespace ember::aot {

// The constant %w when `v` is permute(%w, [1, 0]) or t(%w) of a static 2-D constant, else kNoValue.
ValueId transposed_constant(const Graph& g, const std::vector<int>& producer, ValueId v);

// Whether the scalar argument `name` of `n` is 1 (absent: the schema's default 1).
bool is_one(const Node& n, const char* name);

// A lifted parameter `base` of `dtype` / `sizes` holding `data` (placed after the other lifted
// constants, before the user inputs).
runtime::Result<ValueId> add_constant_parameter(Graph& g, const std::string& base,
                                                runtime::ScalarType dtype,
                                                const std::vector<int64_t>& sizes,
                                                std::shared_ptr<ConstantData> data);

}  // namespace ember::aot
