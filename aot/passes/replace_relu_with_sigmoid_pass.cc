// ReplaceReluWithSigmoidPass (see replace_relu_with_sigmoid_pass.h).
#include "aot/passes/replace_relu_with_sigmoid_pass.h"

namespace ember::aot {

Error ReplaceReluWithSigmoidPass::run(Graph& graph) const {
  const OpName relu{"aten", "relu", "default"};
  for (Node& n : graph.nodes()) {
    if (n.kind != NodeKind::Op || !(n.op == relu)) continue;
    n.op.name = "sigmoid";
    n.target = "torch.ops.aten.sigmoid.default";
  }
  return Error::Ok;
}

}  // namespace ember::aot
