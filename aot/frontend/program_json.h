// Decoding of the whole ExportedProgram JSON (serialized_exported_program.json or
// models/model.json) into a Graph: schema version, range constraints, values
// (tensor_values, sym_int/float/bool_values, custom_obj_values), graph inputs, nodes,
// outputs, and the graph signature. Unknown keys are ignored; torch 2.2's all-null
// unions and int schema versions are accepted. Weights are attached separately.
#pragma once

#include <string>

#include "aot/frontend/json_util.h"
#include "aot/ir/graph.h"

namespace ember::aot {

// Fills `graph` (expected empty) from the program JSON text. `what` names the entry.
// The values, inputs, nodes and outputs of one graph JSON object (no signature) into *g,
// whose range constraints must already be set; higher-order cond nodes are flattened (see
// aot/ir/control_flow.h). Also used for the branch subgraphs of cond.
Error decode_graph_body(const Json& graph_json, Graph* g);

Error decode_exported_program(const std::string& text, const std::string& what, Graph* graph);

}  // namespace ember::aot
