// DelegatedModule, to_backend and call_delegated (see delegated_module.h).
#include "aot/backend/delegated_module.h"

#include "aot/ir/printer.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool is_constant_input(const Graph& g, const Argument& in) {
  return in.kind == ArgKind::Tensor && g.value(in.values[0]).tensor.constant != nullptr;
}

}  // namespace

std::string DelegatedModule::to_string() const {
  std::string out = "DelegatedModule(backend_id=" + backend_id + ", processed=" +
                    std::to_string(processed.size()) + " bytes, compile_specs=[";
  for (size_t i = 0; i < compile_specs.size(); ++i) {
    out += (i ? ", " : "") + compile_specs[i].key + ":" +
           std::to_string(compile_specs[i].value.size()) + "B";
  }
  return out + "])\noriginal:\n" + print_graph(original);
}

Result<DelegatedModule> to_backend(const Graph& edge, const Partitioner& backend,
                                   std::vector<CompileSpec> compile_specs) {
  for (const Node& n : edge.nodes()) {
    Support s = backend.supports(n, edge);
    if (!s.supported) {
      return not_supported(std::string("to_backend(") + backend.backend_id() + "): " +
                           n.describe() + " is not supported: " + s.reason);
    }
  }
  DelegatedModule m;
  m.backend_id = backend.backend_id();
  EMBER_ASSIGN_OR_RETURN(PreprocessResult result, backend.preprocess(edge, compile_specs));
  m.processed = std::move(result.processed);
  m.named_data = std::move(result.named_data);
  m.compile_specs = std::move(compile_specs);
  m.original = edge;
  return m;
}

Result<std::vector<ValueId>> call_delegated(Graph& graph, const DelegatedModule& module,
                                            const std::vector<ValueId>& inputs) {
  const Graph& o = module.original;
  size_t expected = 0;
  for (const Argument& in : o.inputs()) expected += is_constant_input(o, in) ? 0 : 1;
  if (inputs.size() != expected) {
    return invalid_argument("call_delegated: " + std::to_string(inputs.size()) +
                            " inputs given, the delegated module takes " + std::to_string(expected));
  }
  std::vector<NamedArgument> args;
  size_t k = 0;
  for (const Argument& in : o.inputs()) {
    if (is_constant_input(o, in)) continue;
    const ValueId v = inputs[k];
    const std::string want = o.value(in.values[0]).tensor.to_string();
    if (!graph.valid_id(v) || graph.value(v).tensor.to_string() != want) {
      return invalid_argument("call_delegated: input " + std::to_string(k) + " must be " + want);
    }
    args.push_back({"", Argument::tensor(v), false});
    ++k;
  }
  std::vector<Argument> outputs;
  std::vector<ValueId> result;
  for (const Argument& out : o.outputs()) {
    Value v = o.value(out.values[0]);
    v.name = fresh_value_name(graph, "lowered_" + v.name);
    v.tensor.constant = nullptr;
    EMBER_ASSIGN_OR_RETURN(ValueId id, graph.add_value(std::move(v)));
    outputs.push_back(Argument::tensor(id));
    result.push_back(id);
  }
  Node call;
  call.op = OpName{"ember", "delegate_call", module.backend_id};
  call.target = "ember.delegate_call." + module.backend_id;
  call.name = fresh_value_name(graph, "lowered_call");
  call.inputs = std::move(args);
  call.outputs = std::move(outputs);
  call.metadata[kDelegateBackendKey] = module.backend_id;
  call.metadata[kDelegateBlobKey] = std::string(module.processed.begin(), module.processed.end());
  call.metadata[kDelegateCompileSpecsKey] = encode_compile_specs(module.compile_specs);
  if (!module.named_data.empty()) call.metadata[kDelegateNamedDataKey] = encode_named_data(module.named_data);
  std::vector<NodeProvenance> inside;
  for (const Node& n : module.original.nodes()) inside.push_back(provenance_of(n));
  call.metadata[kDelegateNodesKey] = encode_delegated_nodes(inside);
  graph.nodes().push_back(std::move(call));
  return result;
}


Result<Graph> DelegatedModule::standalone_graph() const {
  Graph g;
  g.info() = original.info();
  std::vector<ValueId> ins;
  for (size_t i = 0; i < original.inputs().size(); ++i) {
    const Argument& in = original.inputs()[i];
    if (is_constant_input(original, in)) continue;
    EMBER_ASSIGN_OR_RETURN(ValueId v, g.add_value(original.value(in.values[0])));
    g.inputs().push_back(Argument::tensor(v));
    InputSpec spec = i < original.signature().inputs.size() ? original.signature().inputs[i] : InputSpec{};
    spec.kind = InputKind::UserInput;
    g.signature().inputs.push_back(spec);
    ins.push_back(v);
  }
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> outs, call_delegated(g, *this, ins));
  for (ValueId v : outs) {
    g.outputs().push_back(Argument::tensor(v));
    g.signature().outputs.push_back({OutputKind::UserOutput, g.value(v).name, ""});
  }
  return g;
}

}  // namespace ember::aot
