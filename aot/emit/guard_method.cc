// derive_input_guards and guard_method (see guard_method.h).
#include "aot/emit/guard_method.h"

#include <map>
#include <utility>

#include "aot/emit/method_compiler.h"

namespace ember::aot {
namespace {

// The lower end of `symbol`'s range: range_constraints first, else the size's own range.
std::optional<int64_t> symbol_min(const Graph& graph, const std::string& symbol, const SymInt& size) {
  auto it = graph.range_constraints().find(symbol);
  return it != graph.range_constraints().end() ? it->second.min : size.range.min;
}

// The emitted method's user tensor inputs, in order (mirrors emit_graph).
std::vector<const Value*> user_tensor_inputs(const Graph& graph) {
  std::vector<const Value*> out;
  const GraphSignature& sig = graph.signature();
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    const bool user = i >= sig.inputs.size() || sig.inputs[i].kind == InputKind::UserInput;
    if (!user) continue;
    const Argument& in = graph.inputs()[i];
    const bool tensor = in.kind == ArgKind::Tensor && !in.values.empty() && graph.valid_id(in.values[0]);
    out.push_back(tensor ? &graph.value(in.values[0]) : nullptr);
  }
  return out;
}

}  // namespace

Result<std::vector<InputGuardRecord>> derive_input_guards(const Graph& graph) {
  std::vector<InputGuardRecord> guards;
  std::map<std::string, std::pair<int64_t, int64_t>> first_seen;  // symbol -> (input, dim)
  const std::vector<const Value*> inputs = user_tensor_inputs(graph);
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (inputs[k] == nullptr) continue;
    const std::vector<SymInt>& sizes = inputs[k]->tensor.sizes;
    for (size_t d = 0; d < sizes.size(); ++d) {
      if (sizes[d].is_static) continue;
      Result<SymExpr> e = parse_sym_expr(sizes[d].expr);
      if (!e.ok()) {
        return annotate(e.error(), "input " + std::to_string(k) + " ('" + inputs[k]->name +
                                        "') dim " + std::to_string(d));
      }
      if (e->kind != SymExpr::Kind::Symbol) continue;
      const int64_t input = static_cast<int64_t>(k), dim = static_cast<int64_t>(d);
      auto seen = first_seen.find(e->name);
      if (seen != first_seen.end()) {
        guards.push_back({InputGuardRecord::kEqualSize, input, dim, seen->second.first, seen->second.second});
        continue;
      }
      first_seen[e->name] = {input, dim};
      const std::optional<int64_t> min = symbol_min(graph, e->name, sizes[d]);
      if (min && *min > 0) guards.push_back({InputGuardRecord::kMinSize, input, dim, *min, 0});
    }
  }
  if (guards.size() > kMaxInputGuards) {
    return not_supported("the inputs carry " + std::to_string(guards.size()) +
                         " dynamic-shape guards (dim minimums and equalities); the runtime reads at most " +
                         std::to_string(kMaxInputGuards));
  }
  return guards;
}

std::string guard_method_name(const std::string& method) { return kGuardMethodPrefix + method; }

Result<EmitMethod> guard_method(const std::string& method, const std::vector<InputGuardRecord>& guards) {
  std::vector<EmitValue> ints = {EmitValue::of_int(kGuardTableVersion),
                                 EmitValue::of_int(static_cast<int64_t>(guards.size()))};
  for (const InputGuardRecord& g : guards) {
    for (int64_t v : {g.kind, g.input, g.dim, g.a, g.b}) ints.push_back(EmitValue::of_int(v));
  }
  EMBER_ASSIGN_OR_RETURN(EmitProgram p,
                         constant_method(guard_method_name(method), std::move(ints)));
  return std::move(p.methods[0]);
}

}  // namespace ember::aot
