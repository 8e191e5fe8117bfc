// BoundSymbolsPass: every symbolic size gets an upper bound before memory planning.
//
// Data-dependent ops (nonzero, masked_select, _unique2, item()/_local_scalar_dense) give
// their output sizes *unbacked* symbols (u0, u1, ...). torch.export's range constraints
// often bound them (nonzero of a [3,4] tensor: u0 in [0, 12]); when they do not
// (zeros(n.item())), the user gives the bound with `lower --max_dim`:
//
//   --max_dim u0=4096   this symbol (any symbol of the program, backed or unbacked)
//   --max_dim 4096      every unbacked symbol without an upper bound in the export
//
// The tighter of the export's bound and the flag wins (the export's bound is a proven
// fact; a smaller flag is the user's promise, checked at run time when the kernel resizes
// its output). The pass writes the new maxima into range_constraints and re-evaluates the
// range of every symbolic size in the graph.
//
// Before: range_constraints {u0: [0, inf]};  %full: f32[u0]
// After:  range_constraints {u0: [0, 16]};   %full: f32[u0] with range [0, 16]
//
// Errors: InvalidArgument for a flag naming a symbol the program does not have, or a bound
// below the symbol's minimum; NotSupported for an unbacked symbol still without an upper
// bound that sizes a tensor, naming the symbol, the node that produces it and the flag.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "aot/passes/pass.h"

namespace ember::aot {

struct SymbolBounds {
  std::map<std::string, int64_t> per_symbol;  // --max_dim u0=N
  std::optional<int64_t> unbacked_default;    // --max_dim N
  bool empty() const { return per_symbol.empty() && !unbacked_default; }
};

// Parses one --max_dim value ("u0=4096" or "4096") into `bounds`; InvalidArgument for
// anything else (a negative bound, a missing name or number, a repeated symbol).
Error parse_max_dim_flag(const std::string& text, SymbolBounds* bounds);

// Whether `symbol` is an unbacked (data-dependent) symbol as torch names them ("u0").
bool is_unbacked_symbol(const std::string& symbol);

class BoundSymbolsPass final : public Pass {
 public:
  explicit BoundSymbolsPass(SymbolBounds bounds = {}) : bounds_(std::move(bounds)) {}
  const char* name() const override { return "bound_symbols"; }
  Error run(Graph& graph) const override;

 private:
  SymbolBounds bounds_;
};

}  // namespace ember::aot
