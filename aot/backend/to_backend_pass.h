// ToBackendPass: replaces runs of nodes a Partitioner supports by delegate-call nodes.
//
// Before: %a = aten::add.Tensor(%x, %y); %m = aten::mul.Tensor(%a, %y); %r = aten::relu(%m)
// After:  %m = ember::delegate_call.BackendWithCompilerDemo(%x, %y)   [blob in metadata]
//         %r = aten::relu(%m)
// (with a partitioner that supports add and mul). Grouping is by maximal runs of
// consecutive supported op nodes in execution order, so every group's inputs are defined
// before it. Before grouping, the nodes between barriers (ember:: markers and calls, in-place
// writes, non-aten operators) are put in a topological order that keeps supported and
// unsupported nodes together, unsupported first: a mask or gather that depends only on the
// inputs runs ahead of the delegate instead of splitting it (issue #30: Hugging Face BERT's
// attention-mask nodes). See partitioner.h for the contract; the
// report (optional, caller-owned) receives one entry per op node.
#pragma once

#include "aot/backend/partitioner.h"
#include "aot/passes/pass.h"

namespace ember::aot {

class ToBackendPass final : public Pass {
 public:
  ToBackendPass(const Partitioner* partitioner, DelegationReport* report = nullptr)
      : partitioner_(partitioner), report_(report) {}
  const char* name() const override { return "to_backend"; }
  Error run(Graph& graph) const override;

 private:
  const Partitioner* partitioner_;
  DelegationReport* report_;
};

// Builds the subgraph of graph.nodes()[begin, end) (see partitioner.h); `inputs` and
// `outputs` receive the outer values it reads (non-constant ones) and defines for later use.
Result<Graph> extract_subgraph(const Graph& graph, size_t begin, size_t end,
                                 std::vector<ValueId>* inputs, std::vector<ValueId>* outputs);

}  // namespace ember::aot
