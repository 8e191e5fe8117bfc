// Graph verifier: the invariants every stage boundary checks.
//
// Checks that (1) every value reference is a valid id of the right kind (tensor
// arguments name tensor values), (2) nodes are in topological order: every use is
// defined earlier (by a graph input or an earlier node) and every value is defined once,
// (3) graph outputs are defined, (4) the signature has one spec per graph input/output,
// and (5) for ATen ops with a known schema, the named inputs bind to the schema (names
// exist, required arguments present, kinds fit) and the outputs match the returns in
// number, and (6) every tensor a graph input or node defines is one the runtime can load:
// a known dtype, rank <= 16, non-negative sizes, at most INT32_MAX elements (upper bounds
// for symbolic sizes), dim_order a permutation, constant data exactly as long as the tensor.
// Errors name the node, its op and source line, and what is inconsistent. Stage::run checks
// every stage's output graph, so a broken graph stops before memory planning and emission
// instead of at the lowering's final self-check (check_pte_loads).
#pragma once

#include "aot/ir/graph.h"
#include "aot/ir/op_schema.h"
#include "aot/ir/error.h"

namespace ember::aot {

struct VerifyOptions {
  // Schemas to check ops against; nullptr = find_op_schema (the built-in table, then the
  // graph's custom operators).
  const OpSchemaRegistry* schemas = nullptr;
  // When true an op without a schema is kOperatorMissing; otherwise it is skipped.
  bool require_schemas = false;
};

Error verify_graph(const Graph& graph, const VerifyOptions& options = {});

}  // namespace ember::aot
