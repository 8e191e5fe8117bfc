// DelegatedModule: a whole method delegated to one backend (the tutorial's first way of
// to_backend), and the pieces that let it be saved on its own or called from a larger
// graph (the second way). The third way, partitioning, is ToBackendPass with a backend's
// Partitioner (aot/backend).
//
//   auto module = to_backend(edge_graph, DemoPartitioner(), {{"max_numel", {4}}});
//   std::cout << module->to_string();                    // backend, blob, specs, original graph
//   auto pte = delegated_module_pte(*module);            // aot/recipe: a program of one DelegateCall
//   auto outs = call_delegated(composite, *module, {x});  // a delegate-call node in `composite`
//
// Compile specs and named data travel on the delegate-call node's metadata
// (aot/backend/delegate_metadata.h); the emit step writes them into the program.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "aot/backend/partitioner.h"
#include "aot/backend/backend_data.h"
#include "aot/ir/graph.h"
#include "aot/backend/delegate_metadata.h"

namespace ember::aot {

struct DelegatedModule {
  std::string backend_id;          // "DemoBackend"
  std::vector<uint8_t> processed;  // the backend's blob
  std::vector<CompileSpec> compile_specs;
  std::vector<NamedData> named_data;  // what the blob refers to by key
  Graph original;  // the edge graph that was delegated

  // Backend id, blob size, compile specs and the original graph, as text.
  std::string to_string() const;
  // A standalone graph that takes the original's user inputs and returns its outputs
  // through one delegate-call node (delegated_module_pte() in aot/recipe/compile_method.h writes it as a .pte).
  Result<Graph> standalone_graph() const;
};

// Lowers all of `edge` with `backend.preprocess` (every op node must be supported:
// NotSupported names the first one that is not, with the backend's reason).
Result<DelegatedModule> to_backend(const Graph& edge, const Partitioner& backend,
                                   std::vector<CompileSpec> compile_specs = {});

// Appends to `graph` a delegate-call node running `module` on `inputs` (one per user
// input of the original, in order, with matching specs); returns the new output values.
Result<std::vector<ValueId>> call_delegated(Graph& graph, const DelegatedModule& module,
                                            const std::vector<ValueId>& inputs);

}  // namespace ember::aot
