// BoundSymbolsPass (see bound_symbols_pass.h).
#include "aot/passes/bound_symbols_pass.h"

#include <algorithm>
#include <cctype>
#include <set>
#include <vector>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool parse_count(const std::string& s, int64_t* out) {
  if (s.empty() || s.size() > 18) return false;
  int64_t v = 0;
  for (char c : s) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
    v = v * 10 + (c - '0');
  }
  *out = v;
  return true;
}

// The free symbols of a symbolic size (none for static sizes or text that does not parse).
std::vector<std::string> symbols_of(const SymInt& s) {
  if (s.is_static) return {};
  Result<SymExpr> e = parse_sym_expr(s.expr);
  return e.ok() ? e->symbols() : std::vector<std::string>{};
}

template <typename Fn>
void for_each_sym(Value& v, Fn fn) {
  if (v.kind == ValueKind::Tensor) {
    for (SymInt& s : v.tensor.sizes) fn(s);
    for (SymInt& s : v.tensor.strides) fn(s);
  } else if (v.kind == ValueKind::SymInt) {
    fn(v.sym);
  }
}

bool mentions(const SymInt& s, const std::string& symbol) {
  std::vector<std::string> syms = symbols_of(s);
  return std::find(syms.begin(), syms.end(), symbol) != syms.end();
}

// The first node with an output (a scalar or a tensor size) that mentions `symbol`.
const Node* producer_of(const Graph& g, const std::string& symbol) {
  for (const Node& n : g.nodes()) {
    bool found = false;
    for (const Argument& out : n.outputs) {
      for_each_value(out, [&](ValueId id) {
        const Value& v = g.value(id);
        if (v.kind == ValueKind::SymInt && mentions(v.sym, symbol)) found = true;
        if (v.kind == ValueKind::Tensor) {
          for (const SymInt& s : v.tensor.sizes) found = found || mentions(s, symbol);
        }
      });
    }
    if (found) return &n;
  }
  return nullptr;
}

std::string join(const std::set<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out.empty() ? "none" : out;
}

}  // namespace

bool is_unbacked_symbol(const std::string& symbol) {
  if (symbol.size() < 2 || symbol[0] != 'u') return false;
  return std::all_of(symbol.begin() + 1, symbol.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; });
}

Error parse_max_dim_flag(const std::string& text, SymbolBounds* bounds) {
  const std::string usage = "--max_dim '" + text + "': expected SYMBOL=N (e.g. u0=4096) or N";
  const size_t eq = text.find('=');
  int64_t n = 0;
  if (eq == std::string::npos) {
    if (!parse_count(text, &n)) return invalid_argument(usage);
    if (bounds->unbacked_default) return invalid_argument("--max_dim N given twice");
    bounds->unbacked_default = n;
    return Error::Ok;
  }
  const std::string name = text.substr(0, eq);
  if (name.empty() || !parse_count(text.substr(eq + 1), &n)) return invalid_argument(usage);
  if (!bounds->per_symbol.emplace(name, n).second) {
    return invalid_argument("--max_dim " + name + "=...: given twice");
  }
  return Error::Ok;
}

Error BoundSymbolsPass::run(Graph& graph) const {
  std::map<std::string, SymRange>& ranges = graph.range_constraints();
  std::set<std::string> present;
  for (const auto& [name, range] : ranges) present.insert(name);
  for (size_t v = 0; v < graph.num_values(); ++v) {
    for_each_sym(graph.value(static_cast<ValueId>(v)), [&](const SymInt& s) {
      for (const std::string& name : symbols_of(s)) present.insert(name);
    });
  }
  auto tighten = [&](const std::string& name, int64_t n, const std::string& flag) -> Error {
    SymRange& r = ranges[name];
    if (r.min && n < *r.min) {
      return invalid_argument(flag + ": " + std::to_string(n) + " is below the minimum " +
                              std::to_string(*r.min) + " of symbol " + name + " (range " +
                              r.to_string() + ")");
    }
    r.max = r.max ? std::min(*r.max, n) : n;
    return Error::Ok;
  };
  for (const auto& [name, n] : bounds_.per_symbol) {
    const std::string flag = "--max_dim " + name + "=" + std::to_string(n);
    if (present.count(name) == 0) {
      return invalid_argument(flag + ": the program has no symbol '" + name + "' (its symbols: " +
                              join(present) + ")");
    }
    EMBER_TRY(tighten(name, n, flag));
  }
  if (bounds_.unbacked_default) {
    for (const std::string& name : present) {
      auto it = ranges.find(name);
      const bool bounded = it != ranges.end() && it->second.max;
      if (!is_unbacked_symbol(name) || bounded || bounds_.per_symbol.count(name) != 0) continue;
      EMBER_TRY(tighten(name, *bounds_.unbacked_default,
                        "--max_dim " + std::to_string(*bounds_.unbacked_default)));
    }
  }
  // Re-evaluate every symbolic size with the new ranges (the frontend evaluated them once).
  // Bounds only tighten: the frontend's range can be narrower than what the export's range
  // constraints give the expression (a training-IR export's s0*2), so keep the tighter end.
  if (!bounds_.empty()) {
    for (size_t v = 0; v < graph.num_values(); ++v) {
      for_each_sym(graph.value(static_cast<ValueId>(v)), [&](SymInt& s) {
        if (s.is_static) return;
        Result<SymExpr> e = parse_sym_expr(s.expr);
        if (!e.ok()) return;
        const SymRange fresh = e->eval_range(ranges);
        if (fresh.min && (!s.range.min || *fresh.min > *s.range.min)) s.range.min = fresh.min;
        if (fresh.max && (!s.range.max || *fresh.max < *s.range.max)) s.range.max = fresh.max;
      });
    }
  }
  // An unbacked symbol that sizes a computed tensor needs an upper bound by now.
  for (const Node& n : graph.nodes()) {
    for (const Argument& out : n.outputs) {
      std::string missing;
      for_each_value(out, [&](ValueId id) {
        const Value& v = graph.value(id);
        if (v.kind != ValueKind::Tensor || !missing.empty()) return;
        for (const SymInt& s : v.tensor.sizes) {
          for (const std::string& name : symbols_of(s)) {
            auto it = ranges.find(name);
            if (is_unbacked_symbol(name) && (it == ranges.end() || !it->second.max)) {
              missing = name;
              break;
            }
          }
        }
      });
      if (missing.empty()) continue;
      const auto it = ranges.find(missing);
      const std::string range = it != ranges.end() ? it->second.to_string() : "[0, inf]";
      const Node* from = producer_of(graph, missing);
      return not_supported("data-dependent size " + missing + " (range " + range +
                           ") has no upper bound: it comes from " +
                           (from != nullptr ? from->describe() : std::string("an unknown node")) +
                           " and sizes the output of " + n.describe() +
                           "; give a bound with lower --max_dim " + missing +
                           "=N (or --max_dim N for every unbounded data-dependent size)");
    }
  }
  return Error::Ok;
}

}  // namespace ember::aot
