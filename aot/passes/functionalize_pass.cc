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

bool is_buffer_input(const Graph& graph, ValueId v) {
  const GraphSignature& sig = graph.signature();
  if (sig.inputs.size() != graph.inputs().size() || sig.outputs.size() != graph.outputs().size()) {
    return false;
  }
  for (size_t k = 0; k < sig.inputs.size(); ++k) {
    if (tensor_of(graph.inputs()[k]) == v && sig.inputs[k].kind == InputKind::Buffer) return true;
  }
  return false;
}

// The node in [0, before) that defines `v`, or -1.
int find_producer(const Graph& graph, ValueId v, size_t before) {
  for (size_t k = before; k-- > 0;) {
    for (const Argument& out : graph.nodes()[k].outputs) {
      if (tensor_of(out) == v) return static_cast<int>(k);
    }
  }
  return -1;
}

// aten::to.* (and type_as) may alias (PyTorch's schema says so): it returns its input when
// nothing converts, and a new tensor when the element type changes. On a CPU-only runtime
// only the element type can change, so the node is an alias exactly when its dtype is kept
// (a KV cache's cumulative_length.to(device).add_(n) writes through one).
bool is_conversion(const Node& n) {
  const std::string q = n.op.qualified();
  return q.rfind("aten::to.", 0) == 0 || q == "aten::type_as.default";
}

bool keeps_dtype(const Graph& graph, const Node& n) {
  const NamedArgument* self = n.find_input("self");
  const ValueId in = self == nullptr ? kNoValue : tensor_of(self->arg);
  const ValueId out = n.outputs.empty() ? kNoValue : tensor_of(n.outputs[0]);
  return in != kNoValue && out != kNoValue &&
         graph.value(in).tensor.dtype == graph.value(out).tensor.dtype;
}

bool is_view_node(const Graph& graph, const Node& n) {
  const OpSchema* s = n.kind == NodeKind::Op ? builtin_op_schemas().find(n.op) : nullptr;
  if (s == nullptr || !s->is_view) return false;
  return !is_conversion(n) || keeps_dtype(graph, n);
}

// Views whose write-back is a scatter (or, for an alias, the value itself).
bool is_alias_view(const Node& n) {
  return n.op.qualified() == "aten::alias.default" || is_conversion(n);
}

bool is_scatterable_view(const Node& n) {
  const std::string q = n.op.qualified();
  return q == "aten::slice.Tensor" || q == "aten::select.int" || is_alias_view(n);
}

bool used_from(const Graph& graph, ValueId v, size_t first) {
  for (size_t k = first; k < graph.nodes().size(); ++k) {
    for (const NamedArgument& in : graph.nodes()[k].inputs) {
      for (ValueId u : in.arg.values) {
        if (u == v) return true;
      }
    }
  }
  for (const Argument& out : graph.outputs()) {
    for (ValueId u : out.values) {
      if (u == v) return true;
    }
  }
  return false;
}

struct ViewStep {
  size_t node;    // the slice/select/alias node
  ValueId base;   // its input
};

// The chain of slice/select/alias views `mutated` was taken through (innermost first).
// NotSupported when the chain passes another view op whose base is read after node `at`.
Result<std::vector<ViewStep>> view_chain(const Graph& graph, ValueId mutated, size_t at,
                                         const Node& user) {
  std::vector<ViewStep> chain;
  ValueId v = mutated;
  while (true) {
    const int p = find_producer(graph, v, at);
    if (p < 0 || !is_view_node(graph, graph.nodes()[static_cast<size_t>(p)])) return chain;
    const Node& view = graph.nodes()[static_cast<size_t>(p)];
    const NamedArgument* self = view.find_input("self");
    const ValueId base = self == nullptr ? kNoValue : tensor_of(self->arg);
    if (base == kNoValue) return chain;
    if (!is_scatterable_view(view)) {
      if (used_from(graph, base, at + 1)) {
        return not_supported(user.describe() + ": writes in place through view '" + view.name +
                             "' (" + view.op.qualified() + ") whose base is read later; only "
                             "slice/select/alias views are written back");
      }
      return chain;
    }
    chain.push_back({static_cast<size_t>(p), base});
    v = base;
  }
}

// Inserts after node `at` the scatters that write `value` (the new content of the chain's
// innermost view) back into each base, and makes later reads of each base read its new
// value. Returns the root's new value and sets *inserted to the number of nodes added.
Result<ValueId> write_back(Graph& graph, const std::vector<ViewStep>& chain, ValueId value,
                           size_t at, size_t* inserted) {
  size_t pos = at + 1;
  for (const ViewStep& step : chain) {
    const Node view = graph.nodes()[step.node];
    ValueId next = value;
    if (!is_alias_view(view)) {
      const TensorSpec& bs = graph.value(step.base).tensor;
      EMBER_ASSIGN_OR_RETURN(next, add_tensor_value(graph, view.name + "_scatter",
                                                    contiguous_spec(bs.dtype, bs.sizes)));
      std::vector<NamedArgument> args = {{"self", Argument::tensor(step.base), false},
                                         {"src", Argument::tensor(value), false}};
      for (const NamedArgument& a : view.inputs) {
        if (a.name != "self") args.push_back(a);
      }
      const bool slice = view.op.name == "slice";
      graph.nodes().insert(graph.nodes().begin() + static_cast<long>(pos),
                           make_op_node("aten", slice ? "slice_scatter" : "select_scatter",
                                        "default", std::move(args), {Argument::tensor(next)}, view));
      ++pos;
    }
    replace_uses(graph, step.base, next, pos);
    value = next;
  }
  *inserted = pos - at - 1;
  return value;
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
    const Node user = n;
    EMBER_ASSIGN_OR_RETURN(std::vector<ViewStep> chain, view_chain(graph, mutated, i, user));
    const ValueId root = chain.empty() ? mutated : chain.back().base;
    const bool root_is_input =
        static_cast<size_t>(root) < is_input.size() && is_input[static_cast<size_t>(root)];
    if (root_is_input && !is_buffer_input(graph, root)) {
      return not_supported(user.describe() + ": writes graph input '" + graph.value(root).name +
                           "' in place; export with the mutation functionalized (torch.export "
                           "does this for buffers) or clone the input first");
    }
    {
      Node& fn = graph.nodes()[i];
      fn.op = functional;
      fn.target = "torch.ops." + functional.ns + "." + functional.name + "." + functional.overload;
      // dropout_(self, ...) is dropout(input, ...): the functional form's first argument name.
      const OpSchema* fs = builtin_op_schemas().find(functional);
      for (NamedArgument& a : fn.inputs) {
        if (a.name == "self" && !fs->args.empty()) a.name = fs->args[0].name;
      }
    }
    replace_uses(graph, mutated, result, i + 1);
    size_t inserted = 0;
    EMBER_ASSIGN_OR_RETURN(ValueId new_root, write_back(graph, chain, result, i, &inserted));
    if (root_is_input) record_buffer_mutation(graph, root, new_root);
    i += inserted;
  }
  return Error::Ok;
}

}  // namespace ember::aot
