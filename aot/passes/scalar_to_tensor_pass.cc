// ScalarToTensorPass (see scalar_to_tensor_pass.h).
#include "aot/passes/scalar_to_tensor_pass.h"

#include <algorithm>
#include <cstring>

#include "aot/ir/op_schema.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

Result<ValueId> make_scalar_tensor(Graph& graph, const Argument& arg) {
  auto data = std::make_shared<ConstantData>();
  ScalarType dtype;
  if (arg.kind == ArgKind::Float) {
    float f = static_cast<float>(arg.f);
    data->bytes.resize(4);
    std::memcpy(data->bytes.data(), &f, 4);
    dtype = ScalarType::Float;
  } else if (arg.kind == ArgKind::Int) {
    data->bytes.resize(8);
    std::memcpy(data->bytes.data(), &arg.i, 8);
    dtype = ScalarType::Long;
  } else {
    data->bytes.assign(1, arg.b ? 1 : 0);
    dtype = ScalarType::Bool;
  }
  data->source = "scalar_to_tensor";
  TensorSpec spec = contiguous_spec(dtype, {});
  spec.constant = std::move(data);
  EMBER_ASSIGN_OR_RETURN(ValueId v, add_tensor_value(graph, "_scalar", std::move(spec)));
  // A lifted tensor constant: a graph input placed before the user inputs.
  size_t at = 0;
  auto& specs = graph.signature().inputs;
  while (at < specs.size() && specs[at].kind != InputKind::UserInput) ++at;
  InputSpec in;
  in.kind = InputKind::TensorConstant;
  in.name = graph.value(v).name;
  in.target = graph.value(v).name;
  if (specs.size() == graph.inputs().size()) specs.insert(specs.begin() + static_cast<long>(at), in);
  graph.inputs().insert(graph.inputs().begin() + static_cast<long>(std::min(at, graph.inputs().size())),
                        Argument::tensor(v));
  return v;
}

}  // namespace

Error ScalarToTensorPass::run(Graph& graph) const {
  for (Node& n : graph.nodes()) {
    if (n.kind != NodeKind::Op) continue;
    const OpSchema* s = find_op_schema(graph, n.op);
    if (s == nullptr) continue;
    for (NamedArgument& in : n.inputs) {
      int idx = s->arg_index(in.name);
      if (idx < 0) continue;
      const SchemaType& t = s->args[static_cast<size_t>(idx)].type;
      if (t.base != BaseType::Tensor || t.list) continue;
      ArgKind k = in.arg.kind;
      if (k != ArgKind::Float && k != ArgKind::Int && k != ArgKind::Bool) continue;
      EMBER_ASSIGN_OR_RETURN(ValueId v, make_scalar_tensor(graph, in.arg));
      in.arg = Argument::tensor(v);
    }
  }
  return Error::Ok;
}

}  // namespace ember::aot
