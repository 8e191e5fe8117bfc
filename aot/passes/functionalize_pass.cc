// FunctionalizePass (see functionalize_pass.h).
#include "aot/passes/functionalize_pass.h"

#include "aot/ir/op_schema.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

// If `buffer` is a BUFFER graph input, makes `value` its BUFFER_MUTATION output (the
// signature's way of saying "write this back"), replacing an earlier one; else false.
bool record_buffer_mutation(Graph& graph, ValueId buffer, ValueId value) {
  GraphSignature& sig = graph.signature();
  if (sig.inputs.size() != graph.inputs().size() || sig.outputs.size() != graph.outputs().size()) {
    return false;
  }
  std::string target;
  for (size_t i = 0; i < sig.inputs.size(); ++i) {
    if (tensor_of(graph.inputs()[i]) == buffer && sig.inputs[i].kind == InputKind::Buffer) {
      target = sig.inputs[i].target;
    }
  }
  if (target.empty()) return false;
  for (size_t o = 0; o < sig.outputs.size(); ++o) {
    if (sig.outputs[o].kind == OutputKind::BufferMutation && sig.outputs[o].target == target) {
      graph.outputs()[o] = Argument::tensor(value);
      sig.outputs[o].name = graph.value(value).name;
      return true;
    }
  }
  size_t at = 0;  // mutations come before the user outputs
  while (at < sig.outputs.size() && sig.outputs[at].kind == OutputKind::BufferMutation) ++at;
  sig.outputs.insert(sig.outputs.begin() + static_cast<long>(at),
                     OutputSpec{OutputKind::BufferMutation, graph.value(value).name, target});
  graph.outputs().insert(graph.outputs().begin() + static_cast<long>(at), Argument::tensor(value));
  return true;
}

}  // namespace

Error FunctionalizePass::run(Graph& graph) const {
  std::vector<bool> is_input(graph.num_values(), false);
  for (const Argument& in : graph.inputs()) {
    for_each_value(in, [&](ValueId v) { is_input[static_cast<size_t>(v)] = true; });
  }
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Node& n = graph.nodes()[i];
    if (n.kind != NodeKind::Op || n.op.name.size() < 2 || n.op.name.back() != '_' ||
        n.op.name.compare(0, 2, "__") == 0) {
      continue;
    }
    OpName functional = n.op;
    functional.name.pop_back();
    if (builtin_op_schemas().find(functional) == nullptr) {
      return not_supported(n.describe() + ": in-place op without a known functional form '" +
                           functional.qualified() + "': save the program after ep.run_decompositions(), which removes in-place ops");
    }
    const NamedArgument* self = n.find_input("self");
    ValueId mutated = self == nullptr ? kNoValue : tensor_of(self->arg);
    ValueId result = n.outputs.empty() ? kNoValue : tensor_of(n.outputs[0]);
    if (mutated == kNoValue || result == kNoValue) {
      return invalid_program(n.describe() + ": in-place op needs a tensor 'self' and a tensor result");
    }
    if (static_cast<size_t>(mutated) < is_input.size() && is_input[static_cast<size_t>(mutated)] &&
        !record_buffer_mutation(graph, mutated, result)) {
      return not_supported(n.describe() + ": writes graph input '" + graph.value(mutated).name +
                           "' in place; export with the mutation functionalized (torch.export does "
                           "this for buffers) or clone the input first");
    }
    n.op = functional;
    n.target = "torch.ops." + functional.ns + "." + functional.name + "." + functional.overload;
    replace_uses(graph, mutated, result, i + 1);
  }
  return Error::Ok;
}

}  // namespace ember::aot
