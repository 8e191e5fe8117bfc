// Decoding of the torch.export GraphSignature (input_specs / output_specs unions).
// The torch 2.1 signature form (inputs_to_parameters, ...) is Error::NotSupported.
#pragma once

#include "aot/frontend/json_util.h"
#include "aot/ir/graph.h"

namespace ember::aot {

Error decode_signature(const Json& j, Graph& graph, GraphSignature* out);

}  // namespace ember::aot
