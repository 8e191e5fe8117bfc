// add_constant_input (see constant_input.h).
#include "aot/quantize/constant_input.h"

#include <memory>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

Result<ValueId> add_constant_input(Graph& graph, const std::string& base, ScalarType dtype,
                                   const std::vector<int64_t>& sizes, std::vector<uint8_t> bytes,
                                   const std::string& source) {
  EMBER_ASSIGN_OR_RETURN(ValueId v, add_tensor_value(graph, base, contiguous_spec(dtype, static_sizes(sizes))));
  auto c = std::make_shared<ConstantData>();
  c->bytes = std::move(bytes);
  c->source = source;
  graph.value(v).tensor.constant = std::move(c);
  size_t at = 0;
  std::vector<InputSpec>& specs = graph.signature().inputs;
  while (at < specs.size() && at < graph.inputs().size() &&
         specs[at].kind != InputKind::UserInput) {
    ++at;
  }
  InputSpec spec;
  spec.kind = InputKind::TensorConstant;
  spec.name = graph.value(v).name;
  spec.target = graph.value(v).name;
  if (specs.size() == graph.inputs().size()) specs.insert(specs.begin() + long(at), spec);
  graph.inputs().insert(graph.inputs().begin() + long(at), Argument::tensor(v));
  return v;
}

}  // namespace ember::aot
