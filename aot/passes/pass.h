// Pass: one graph-to-graph transformation of the AoT pipeline.
//
// A pass has a name and run(Graph&) -> Error. It keeps no state between runs (any
// configuration is fixed at construction, any report goes to a sink the caller owns), it
// signals failure with a Error naming the node, its op and the user's source line, and
// it never aborts. Each pass lives in its own file with a "before/after" comment. Passes
// are composed by PassPipeline (pipeline.h), which adds verification, printing, dumping
// and timing around every pass.
#pragma once

#include "aot/ir/graph.h"
#include "aot/ir/error.h"

namespace ember::aot {

class Pass {
 public:
  virtual ~Pass() = default;
  // Short snake_case name used in logs and dump file names ("out_variant").
  virtual const char* name() const = 0;
  // Transforms `graph` in place. On error the graph may be partly rewritten.
  virtual Error run(Graph& graph) const = 0;
};

}  // namespace ember::aot
