// SiluAsSigmoidMulPass (see silu_as_sigmoid_mul_pass.h).
#include "aot/passes/silu_as_sigmoid_mul_pass.h"

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

Error SiluAsSigmoidMulPass::run(Graph& graph) const {
  std::vector<Node> out;
  out.reserve(graph.nodes().size());
  for (Node& n : graph.nodes()) {
    ValueId x = optional_tensor_input(n, "self");
    if (!is_aten_op(n, "silu", "default") || x == kNoValue || n.outputs.size() != 1 ||
        graph.value(x).tensor.dtype != ScalarType::Float) {
      out.push_back(std::move(n));
      continue;
    }
    TensorSpec spec = graph.value(x).tensor;
    spec.constant = nullptr;
    EMBER_ASSIGN_OR_RETURN(ValueId s, add_tensor_value(graph, n.name + "_sigmoid",
                                                       contiguous_spec(spec.dtype, spec.sizes)));
    Node sig = make_op_node("aten", "sigmoid", "default", {{"self", Argument::tensor(x)}},
                            {Argument::tensor(s)}, n);
    Node mul = make_op_node("aten", "mul", "Tensor",
                            {{"self", Argument::tensor(x)}, {"other", Argument::tensor(s)}},
                            n.outputs, n);
    mul.name = n.name;
    out.push_back(std::move(sig));
    out.push_back(std::move(mul));
  }
  graph.nodes() = std::move(out);
  return Error::Ok;
}

}  // namespace ember::aot
