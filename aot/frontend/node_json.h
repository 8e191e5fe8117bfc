// Decoding of torch.export Argument unions and Nodes into IR types.
//
// References to values ({"as_tensor": {"name": "x"}}, {"as_sym_int": {"as_name": ...}})
// are resolved against the values already in the graph (created from tensor_values /
// sym_*_values); an unknown name is Error::InvalidProgram. Unsupported variants (as_graph of
// higher-order ops, nested tensor lists, complex) are Error::NotSupported, unknown variants
// Error::InvalidProgram; both name the variant.
#pragma once

#include <string>

#include "aot/frontend/json_util.h"
#include "aot/ir/graph.h"

namespace ember::aot {

Result<Argument> decode_argument(const Json& j, Graph& graph, const std::string& what);
// Decodes node `index` of the graph JSON (target, inputs, outputs, metadata, name).
Result<Node> decode_node(const Json& j, Graph& graph, size_t index);

}  // namespace ember::aot
