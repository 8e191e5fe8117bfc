// DeadCodePass: removes nodes none of whose outputs is used.
//
// Before: %a = aten::relu(%x); %b = aten::neg(%x); output %a
// After:  %a = aten::relu(%x); output %a
// Walks the nodes backwards so chains of dead nodes go in one run. Nodes without outputs
// (side effects) are kept.
#pragma once

#include "aot/passes/pass.h"

namespace ember::aot {

class DeadCodePass final : public Pass {
 public:
  const char* name() const override { return "dead_code"; }
  Error run(Graph& graph) const override;
};

}  // namespace ember::aot
