// derive_input_guards, derive_symbol_bounds and guard_method (see guard_method.h).
#include "aot/emit/guard_method.h"

#include <map>
#include <set>
#include <utility>

#include "aot/emit/program_merge.h"

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

// `e` as mul * symbol + add (torch's derived Dims: 2*s0, s0 + 1, 2*s0 - 1), mul > 0.
bool affine_in_one_symbol(const SymExpr& e, std::string* symbol, int64_t* mul, int64_t* add) {
  using K = SymExpr::Kind;
  if (e.kind == K::Symbol) {
    *symbol = e.name;
    *mul = 1;
    *add = 0;
    return true;
  }
  if (e.kind != K::Call || e.args.size() != 2) return false;
  const SymExpr* a = &e.args[0];
  const SymExpr* b = &e.args[1];
  if (a->kind == K::Integer) std::swap(a, b);  // the constant second
  if (b->kind != K::Integer) return false;
  if (e.name == "Mul" && a->kind == K::Symbol && b->value > 0) {
    *symbol = a->name;
    *mul = b->value;
    *add = 0;
    return true;
  }
  if (e.name == "Add" && affine_in_one_symbol(*a, symbol, mul, add) && *add == 0) {
    *add = b->value;
    return true;
  }
  return false;
}

size_t record_count(const std::vector<InputGuardRecord>& guards) {
  size_t n = 0;
  for (const InputGuardRecord& g : guards) n += g.kind == InputGuardKind::DerivedSize ? 2 : 1;
  return n;
}

}  // namespace

Result<std::vector<InputGuardRecord>> derive_input_guards(const Graph& graph) {
  std::vector<InputGuardRecord> guards;
  struct Derived {
    size_t input, dim;
    SymExpr expr;
  };
  std::vector<Derived> derived;  // guarded after every plain symbol is seen
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
      if (e->kind != SymExpr::Kind::Symbol) {
        derived.push_back({k, d, std::move(e.get())});
        continue;
      }
      const int64_t input = static_cast<int64_t>(k), dim = static_cast<int64_t>(d);
      auto seen = first_seen.find(e->name);
      if (seen != first_seen.end()) {
        guards.push_back({InputGuardKind::EqualSize, input, dim, seen->second.first, seen->second.second});
        continue;
      }
      first_seen[e->name] = {input, dim};
      const std::optional<int64_t> min = symbol_min(graph, e->name, sizes[d]);
      if (min && *min > 0) guards.push_back({InputGuardKind::MinSize, input, dim, *min, 0});
    }
  }
  for (const Derived& dd : derived) {
    std::string symbol;
    int64_t mul = 1, add = 0;
    if (!affine_in_one_symbol(dd.expr, &symbol, &mul, &add)) continue;
    InputGuardRecord g{InputGuardKind::DerivedSize, static_cast<int64_t>(dd.input),
                       static_cast<int64_t>(dd.dim), -1, 0};
    g.mul = mul;
    g.add = add;
    auto seen = first_seen.find(symbol);
    if (seen != first_seen.end()) {
      g.a = seen->second.first;
      g.b = seen->second.second;
    }
    auto range = graph.range_constraints().find(symbol);
    const std::optional<int64_t> min =
        range != graph.range_constraints().end() ? range->second.min : std::nullopt;
    g.min = min ? *min : 0;
    guards.push_back(g);
  }
  if (record_count(guards) > kMaxInputGuards) {
    return not_supported("the inputs carry " + std::to_string(record_count(guards)) +
                         " dynamic-shape guards (dim minimums and equalities); the runtime reads at most " +
                         std::to_string(kMaxInputGuards));
  }
  return guards;
}

namespace {

// N for a symbol named u<N> (torch's unbacked symbols), -1 otherwise.
int64_t unbacked_number(const std::string& name) {
  if (name.size() < 2 || name[0] != 'u' || name.size() > 10) return -1;
  int64_t n = 0;
  for (size_t k = 1; k < name.size(); ++k) {
    if (name[k] < '0' || name[k] > '9') return -1;
    n = n * 10 + (name[k] - '0');
  }
  return n;
}

}  // namespace

std::vector<InputGuardRecord> derive_symbol_bounds(const Graph& graph, const EmitMethod& method,
                                                   size_t room) {
  std::vector<InputGuardRecord> records;
  std::set<int64_t> seen;  // symbols whose first sized node was recorded
  for (const Node& n : graph.nodes()) {
    std::set<int64_t> here;
    for (const Argument& out : n.outputs) {
      if (out.kind != ArgKind::Tensor && out.kind != ArgKind::TensorList) continue;
      for (ValueId v : out.values) {
        if (v == kNoValue || static_cast<size_t>(v) >= method.value_index.size()) continue;
        const int32_t index = method.value_index[static_cast<size_t>(v)];
        const std::vector<SymInt>& sizes = graph.value(v).tensor.sizes;
        for (size_t d = 0; d < sizes.size() && index >= 0; ++d) {
          if (sizes[d].is_static || !sizes[d].range.max) continue;
          Result<SymExpr> e = parse_sym_expr(sizes[d].expr);
          if (!e.ok() || e->kind != SymExpr::Kind::Symbol) continue;
          const int64_t u = unbacked_number(e->name);
          if (u < 0 || seen.count(u) != 0 || records.size() >= room) continue;
          here.insert(u);
          records.push_back({InputGuardKind::SymbolBound, index, static_cast<int64_t>(d), u,
                             *sizes[d].range.max});
        }
      }
    }
    seen.insert(here.begin(), here.end());
  }
  return records;
}

Result<std::vector<InputGuardRecord>> derive_method_guards(const Graph& graph, const EmitMethod& method) {
  EMBER_ASSIGN_OR_RETURN(std::vector<InputGuardRecord> guards, derive_input_guards(graph));
  std::vector<InputGuardRecord> bounds =
      derive_symbol_bounds(graph, method, kMaxInputGuards - record_count(guards));
  guards.insert(guards.end(), bounds.begin(), bounds.end());
  return guards;
}

std::string guard_method_name(const std::string& method) { return kGuardMethodPrefix + method; }

Result<EmitMethod> guard_method(const std::string& method, const std::vector<InputGuardRecord>& guards) {
  std::vector<EmitValue> ints = {EmitValue::of_int(runtime::kGuardTableVersion),
                                 EmitValue::of_int(static_cast<int64_t>(record_count(guards)))};
  for (const InputGuardRecord& g : guards) {
    for (int64_t v : {static_cast<int64_t>(g.kind), g.input, g.dim, g.a, g.b}) ints.push_back(EmitValue::of_int(v));
    if (g.kind != InputGuardKind::DerivedSize) continue;
    for (int64_t v : {static_cast<int64_t>(InputGuardKind::DerivedCoefficients), g.mul, g.add, g.min,
                      int64_t{0}}) {
      ints.push_back(EmitValue::of_int(v));
    }
  }
  EMBER_ASSIGN_OR_RETURN(EmitProgram p,
                         constant_method(guard_method_name(method), std::move(ints)));
  return std::move(p.methods[0]);
}

}  // namespace ember::aot
