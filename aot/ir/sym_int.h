// Possibly symbolic integers (tensor sizes, strides, SymInt arguments).
//
// torch.export writes a dynamic size as a sympy expression string, either in srepr form
// ("Mul(Integer(2), Symbol('s0', positive=True, integer=True))", torch >= 2.6) or in str
// form ("2*s0", older). SymInt keeps that original string, a readable infix rendering
// ("2*s0"), the example-input hint, and the value range implied by the program's
// range_constraints (open ends are std::nullopt). parse_sym_expr() is the small
// expression parser both forms go through; eval_range() does interval arithmetic on it.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "aot/ir/error.h"

namespace ember::aot {

// An integer interval [min, max]; std::nullopt means unbounded on that side.
struct SymRange {
  std::optional<int64_t> min;
  std::optional<int64_t> max;

  bool contains(int64_t v) const { return (!min || v >= *min) && (!max || v <= *max); }
  // "[1, 64]", "[0, inf]", "[-inf, inf]"
  std::string to_string() const;
};

// Parsed sympy expression: a symbol, an integer, or a named function of sub-expressions
// (Add, Mul, Pow, FloorDiv, Mod, Max, Min, ... as sympy spells them).
struct SymExpr {
  enum class Kind { Symbol, Integer, Call };
  Kind kind = Kind::Integer;
  std::string name;           // symbol name ("s0") or function name ("Add")
  int64_t value = 0;          // kInteger
  std::vector<SymExpr> args;  // kCall

  // Readable infix: "s0", "2*s0", "s0 + s1", "(s0 + 1)//2", "Max(s0, 4)".
  std::string to_infix() const;
  // Names of all free symbols, sorted, unique.
  std::vector<std::string> symbols() const;
  // Interval of the expression given symbol ranges (missing symbols: [0, inf]).
  SymRange eval_range(const std::map<std::string, SymRange>& ranges) const;
};

// Parses srepr or str form. Errors (Error::InvalidProgram) quote the text and position.
Result<SymExpr> parse_sym_expr(const std::string& text);

// A size, stride or scalar that is either a known integer or a symbolic expression.
struct SymInt {
  bool is_static = true;
  int64_t value = 0;            // the value when is_static
  std::string expr;             // original expression text when symbolic
  std::string text;             // infix rendering when symbolic (e.g. "s0")
  std::optional<int64_t> hint;  // example-input value when symbolic and known
  SymRange range;               // [value, value] when static

  static SymInt of(int64_t v) {
    SymInt s;
    s.value = v;
    s.range = SymRange{v, v};
    return s;
  }
  // "784", or "s0" (text) for symbolic values.
  std::string to_string() const { return is_static ? std::to_string(value) : text; }
};

}  // namespace ember::aot
