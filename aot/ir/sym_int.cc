// Parser and interval arithmetic for sympy expressions in torch.export files.
//
// Grammar (both srepr and str forms):
//   expr    := term (('+' | '-') term)*
//   term    := unary (('*' | '//' | '/' | '%') unary)*
//   unary   := '-' unary | power
//   power   := primary ('**' unary)?
//   primary := INT | IDENT | IDENT '(' args ')' | '(' expr ')'
//   args    := (arg (',' arg)*)?      arg := IDENT '=' primary | STRING | expr
// Calls named Symbol take their name from the first string argument; Integer(n) is n;
// keyword arguments (positive=True) are skipped. Infix operators become Add/Mul/...
#include "aot/ir/sym_int.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace ember::aot {
namespace {

constexpr int kMaxDepth = 64;

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Result<SymExpr> parse() {
    SymExpr e;
    EMBER_TRY(expr(&e, 0));
    skip_ws();
    if (pos_ != s_.size()) return error("unexpected trailing text");
    return e;
  }

 private:
  Error error(const std::string& what) {
    return invalid_program("symbolic expression '" + s_ + "': " + what + " at offset " +
                           std::to_string(pos_));
  }
  void skip_ws() {
    while (pos_ < s_.size() && std::isspace(static_cast<unsigned char>(s_[pos_]))) ++pos_;
  }
  bool eat(const char* tok) {
    skip_ws();
    size_t n = std::char_traits<char>::length(tok);
    if (s_.compare(pos_, n, tok) != 0) return false;
    pos_ += n;
    return true;
  }
  bool peek(char c) {
    skip_ws();
    return pos_ < s_.size() && s_[pos_] == c;
  }
  static SymExpr call(const char* name, std::vector<SymExpr> args) {
    SymExpr e;
    e.kind = SymExpr::Kind::Call;
    e.name = name;
    e.args = std::move(args);
    return e;
  }

  Error expr(SymExpr* out, int depth) {
    if (depth > kMaxDepth) return error("expression nested too deeply");
    EMBER_TRY(term(out, depth + 1));
    while (true) {
      bool minus = false;
      if (eat("+")) {
      } else if (peek('-')) {
        eat("-");
        minus = true;
      } else {
        return Error::Ok;
      }
      SymExpr rhs;
      EMBER_TRY(term(&rhs, depth + 1));
      if (minus && rhs.kind == SymExpr::Kind::Integer) {
        rhs.value = -rhs.value;
      } else if (minus) {
        rhs = call("Mul", {integer(-1), std::move(rhs)});
      }
      *out = call("Add", {std::move(*out), std::move(rhs)});
    }
  }
  Error term(SymExpr* out, int depth) {
    EMBER_TRY(unary(out, depth + 1));
    while (true) {
      const char* op = nullptr;
      if (eat("//"))
        op = "FloorDiv";
      else if (s_.compare(pos_, 2, "**") != 0 && eat("*"))
        op = "Mul";
      else if (eat("/"))
        op = "TrueDiv";
      else if (eat("%"))
        op = "Mod";
      else
        return Error::Ok;
      SymExpr rhs;
      EMBER_TRY(unary(&rhs, depth + 1));
      *out = call(op, {std::move(*out), std::move(rhs)});
    }
  }
  Error unary(SymExpr* out, int depth) {
    if (depth > kMaxDepth) return error("expression nested too deeply");
    if (eat("-")) {
      SymExpr inner;
      EMBER_TRY(unary(&inner, depth + 1));
      if (inner.kind == SymExpr::Kind::Integer) {
        inner.value = -inner.value;
        *out = inner;
      } else {
        *out = call("Mul", {integer(-1), std::move(inner)});
      }
      return Error::Ok;
    }
    EMBER_TRY(primary(out, depth + 1));
    if (eat("**")) {
      SymExpr rhs;
      EMBER_TRY(unary(&rhs, depth + 1));
      *out = call("Pow", {std::move(*out), std::move(rhs)});
    }
    return Error::Ok;
  }
  static SymExpr integer(int64_t v) {
    SymExpr e;
    e.value = v;
    return e;
  }
  Error primary(SymExpr* out, int depth) {
    if (depth > kMaxDepth) return error("expression nested too deeply");
    skip_ws();
    if (pos_ >= s_.size()) return error("unexpected end");
    char c = s_[pos_];
    if (std::isdigit(static_cast<unsigned char>(c))) {
      int64_t v = 0;
      while (pos_ < s_.size() && std::isdigit(static_cast<unsigned char>(s_[pos_]))) {
        int d = s_[pos_++] - '0';
        if (v > (std::numeric_limits<int64_t>::max() - d) / 10) return error("integer overflow");
        v = v * 10 + d;
      }
      *out = integer(v);
      return Error::Ok;
    }
    if (c == '(') {
      ++pos_;
      EMBER_TRY(expr(out, depth + 1));
      if (!eat(")")) return error("expected ')'");
      return Error::Ok;
    }
    if (!(std::isalpha(static_cast<unsigned char>(c)) || c == '_')) {
      return error(std::string("unexpected character '") + c + "'");
    }
    std::string name = ident();
    if (!eat("(")) {
      out->kind = SymExpr::Kind::Symbol;
      out->name = name;
      return Error::Ok;
    }
    return call_args(name, out, depth);
  }
  std::string ident() {
    size_t start = pos_;
    while (pos_ < s_.size() &&
           (std::isalnum(static_cast<unsigned char>(s_[pos_])) || s_[pos_] == '_')) {
      ++pos_;
    }
    return s_.substr(start, pos_ - start);
  }
  Error call_args(const std::string& name, SymExpr* out, int depth) {
    std::vector<SymExpr> args;
    std::string first_string;
    bool have_string = false;
    bool first = true;
    while (!eat(")")) {
      if (!first && !eat(",")) return error("expected ',' or ')'");
      first = false;
      skip_ws();
      if (pos_ < s_.size() && (s_[pos_] == '\'' || s_[pos_] == '"')) {
        char q = s_[pos_++];
        size_t end = s_.find(q, pos_);
        if (end == std::string::npos) return error("unterminated string");
        if (!have_string) first_string = s_.substr(pos_, end - pos_);
        have_string = true;
        pos_ = end + 1;
        continue;
      }
      size_t save = pos_;
      if (std::isalpha(static_cast<unsigned char>(s_[pos_]))) {
        ident();
        if (eat("=")) {  // keyword argument: parse and drop the value
          SymExpr ignored;
          EMBER_TRY(primary(&ignored, depth + 1));
          continue;
        }
        pos_ = save;
      }
      SymExpr arg;
      EMBER_TRY(expr(&arg, depth + 1));
      args.push_back(std::move(arg));
    }
    if (name == "Symbol") {
      if (first_string.empty()) return error("Symbol without a name");
      out->kind = SymExpr::Kind::Symbol;
      out->name = first_string;
      return Error::Ok;
    }
    if (name == "Integer") {
      if (args.size() != 1 || args[0].kind != SymExpr::Kind::Integer) {
        return error("Integer() expects one integer");
      }
      *out = args[0];
      return Error::Ok;
    }
    out->kind = SymExpr::Kind::Call;
    out->name = name;
    out->args = std::move(args);
    return Error::Ok;
  }

  const std::string& s_;
  size_t pos_ = 0;
};

std::optional<int64_t> checked_add(std::optional<int64_t> a, std::optional<int64_t> b) {
  int64_t r;
  if (!a || !b || __builtin_add_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}
std::optional<int64_t> checked_mul(std::optional<int64_t> a, std::optional<int64_t> b) {
  int64_t r;
  if (!a || !b || __builtin_mul_overflow(*a, *b, &r)) return std::nullopt;
  return r;
}

bool is_infix(const std::string& name) {
  return name == "Add" || name == "Mul" || name == "FloorDiv" || name == "Mod" ||
         name == "PythonMod" || name == "Pow" || name == "TrueDiv";
}

std::string wrap(const SymExpr& e) {
  std::string s = e.to_infix();
  bool compound = e.kind == SymExpr::Kind::Call && is_infix(e.name);
  return compound || (e.kind == SymExpr::Kind::Integer && e.value < 0) ? "(" + s + ")" : s;
}

void collect(const SymExpr& e, std::vector<std::string>* out) {
  if (e.kind == SymExpr::Kind::Symbol) out->push_back(e.name);
  for (const SymExpr& a : e.args) collect(a, out);
}

}  // namespace

std::string SymRange::to_string() const {
  return "[" + (min ? std::to_string(*min) : std::string("-inf")) + ", " +
         (max ? std::to_string(*max) : std::string("inf")) + "]";
}

std::string SymExpr::to_infix() const {
  switch (kind) {
    case Kind::Symbol:
      return name;
    case Kind::Integer:
      return std::to_string(value);
    case Kind::Call:
      break;
  }
  const char* sep = nullptr;
  if (name == "Add")
    sep = " + ";
  else if (name == "Mul")
    sep = "*";
  else if (name == "FloorDiv")
    sep = "//";
  else if (name == "Mod" || name == "PythonMod")
    sep = "%";
  else if (name == "Pow")
    sep = "**";
  else if (name == "TrueDiv")
    sep = "/";
  std::string out;
  if (sep == nullptr) out = name + "(";
  for (size_t i = 0; i < args.size(); ++i) {
    const SymExpr& a = args[i];
    if (i > 0 && name == "Add" && a.kind == Kind::Integer && a.value < 0) {
      out += " - " + std::to_string(-a.value);
      continue;
    }
    if (i > 0 && name == "Add" && a.kind == Kind::Call && a.name == "Mul" && a.args.size() == 2 &&
        a.args[0].kind == Kind::Integer && a.args[0].value == -1) {
      out += " - " + wrap(a.args[1]);
      continue;
    }
    if (i > 0) out += sep ? sep : ", ";
    out += sep ? wrap(args[i]) : args[i].to_infix();
  }
  if (sep == nullptr) out += ")";
  return out;
}

std::vector<std::string> SymExpr::symbols() const {
  std::vector<std::string> out;
  collect(*this, &out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

SymRange SymExpr::eval_range(const std::map<std::string, SymRange>& ranges) const {
  if (kind == Kind::Integer) return SymRange{value, value};
  if (kind == Kind::Symbol) {
    auto it = ranges.find(name);
    return it != ranges.end() ? it->second : SymRange{0, std::nullopt};
  }
  std::vector<SymRange> r;
  for (const SymExpr& a : args) r.push_back(a.eval_range(ranges));
  if (r.empty()) return SymRange{};
  SymRange acc = r[0];
  if (name == "Add") {
    for (size_t i = 1; i < r.size(); ++i) {
      acc.min = checked_add(acc.min, r[i].min);
      acc.max = checked_add(acc.max, r[i].max);
    }
    return acc;
  }
  if (name == "Mul") {  // exact only when every factor is known non-negative
    for (size_t i = 1; i < r.size(); ++i) {
      if (!acc.min || *acc.min < 0 || !r[i].min || *r[i].min < 0) return SymRange{};
      acc.min = checked_mul(acc.min, r[i].min);
      acc.max = checked_mul(acc.max, r[i].max);
    }
    return acc;
  }
  if (name == "Max" || name == "Min") {
    bool is_max = name == "Max";
    for (size_t i = 1; i < r.size(); ++i) {
      auto pick = [&](std::optional<int64_t> a, std::optional<int64_t> b, bool lower) {
        if (!a || !b) return (is_max == lower) ? (a ? a : b) : std::optional<int64_t>();
        return is_max ? std::max(a, b) : std::min(a, b);
      };
      acc.min = pick(acc.min, r[i].min, true);
      acc.max = pick(acc.max, r[i].max, false);
    }
    return acc;
  }
  if (name == "FloorDiv" && r.size() == 2 && r[1].min && r[1].max && *r[1].min == *r[1].max &&
      *r[1].min > 0 && acc.min && *acc.min >= 0) {
    int64_t d = *r[1].min;
    return SymRange{*acc.min / d, acc.max ? std::optional<int64_t>(*acc.max / d) : std::nullopt};
  }
  return SymRange{};
}

Result<SymExpr> parse_sym_expr(const std::string& text) { return Parser(text).parse(); }

}  // namespace ember::aot
