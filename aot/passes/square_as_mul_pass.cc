// SquareAsMulPass (see square_as_mul_pass.h).
#include "aot/passes/square_as_mul_pass.h"

#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

Error SquareAsMulPass::run(Graph& graph) const {
  for (Node& n : graph.nodes()) {
    if (!is_aten_op(n, "pow", "Tensor_Scalar") || n.outputs.size() != 1) continue;
    const ValueId x = optional_tensor_input(n, "self");
    const NamedArgument* e = n.find_input("exponent");
    if (x == kNoValue || e == nullptr) continue;
    const bool two = (e->arg.kind == ArgKind::Int && e->arg.i == 2) ||
                     (e->arg.kind == ArgKind::Float && e->arg.f == 2.0);
    const ScalarType t = graph.value(x).tensor.dtype;
    if (!two || (t != ScalarType::Float && t != ScalarType::Double && t != ScalarType::Half &&
                 t != ScalarType::BFloat16)) {
      continue;
    }
    std::vector<NamedArgument> inputs;
    inputs.push_back({"self", Argument::tensor(x)});
    inputs.push_back({"other", Argument::tensor(x)});
    n = make_op_node("aten", "mul", "Tensor", std::move(inputs), n.outputs, n);
  }
  return Error::Ok;
}

}  // namespace ember::aot
