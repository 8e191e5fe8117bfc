// Function schema text -> OpSchema (see function_schema.h).
#include "aot/ir/function_schema.h"

#include <cctype>
#include <set>

namespace ember::aot {
namespace {

bool ident_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool ident_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

class SchemaParser {
 public:
  explicit SchemaParser(const std::string& text) : t_(text) {}

  Result<OpSchema> parse() {
    OpSchema schema;
    EMBER_ASSIGN_OR_RETURN(schema.op, op_name());
    if (!eat('(')) return error("expected '(' after the operator name");
    EMBER_TRY(arguments(&schema));
    if (!eat("->")) return error("expected '->' and the returns after the arguments");
    EMBER_TRY(returns(&schema));
    skip_ws();
    if (pos_ != t_.size()) return error("unexpected text '" + t_.substr(pos_) + "' after the returns");
    return schema;
  }

 private:
  Error error(const std::string& what) const {
    return invalid_argument("column " + std::to_string(pos_ + 1) + ": " + what);
  }
  void skip_ws() {
    while (pos_ < t_.size() && std::isspace(static_cast<unsigned char>(t_[pos_]))) ++pos_;
  }
  bool eat(char c) {
    skip_ws();
    if (pos_ < t_.size() && t_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  bool eat(const char* s) {
    skip_ws();
    std::string w(s);
    if (t_.compare(pos_, w.size(), w) != 0) return false;
    pos_ += w.size();
    return true;
  }
  bool peek(char c) {
    skip_ws();
    return pos_ < t_.size() && t_[pos_] == c;
  }
  std::string ident() {
    skip_ws();
    if (pos_ >= t_.size() || !ident_start(t_[pos_])) return "";
    size_t start = pos_;
    while (pos_ < t_.size() && ident_char(t_[pos_])) ++pos_;
    return t_.substr(start, pos_ - start);
  }

  Result<OpName> op_name() {
    OpName op;
    op.ns = ident();
    if (op.ns.empty()) return error("expected the operator name ns::name[.overload]");
    if (!eat("::")) return error("operator '" + op.ns + "' lacks a namespace (write ns::" + op.ns + ")");
    op.name = ident();
    if (op.name.empty()) return error("expected the operator name after '" + op.ns + "::'");
    op.overload = "default";
    if (t_.compare(pos_, 1, ".") == 0) {
      ++pos_;
      op.overload = ident();
      if (op.overload.empty()) return error("expected an overload name after '.'");
    }
    return op;
  }

  // A type with its optional alias annotation: "Tensor(a!)", "Tensor?[]", "int[2]".
  Error type(SchemaType* type, bool* is_mutable) {
    size_t start = pos_;
    std::string text = ident();
    if (text.empty()) return error("expected a type");
    *is_mutable = false;
    while (pos_ < t_.size()) {
      char c = t_[pos_];
      if (c == '?') {
        text += c;
        ++pos_;
      } else if (c == '[') {
        size_t close = t_.find(']', pos_);
        if (close == std::string::npos) return error("unclosed '[' in a type");
        std::string n = t_.substr(pos_ + 1, close - pos_ - 1);
        for (char d : n) {
          if (!std::isdigit(static_cast<unsigned char>(d))) return error("bad list size '" + n + "'");
        }
        text += t_.substr(pos_, close - pos_ + 1);
        pos_ = close + 1;
      } else if (c == '(') {
        size_t close = t_.find(')', pos_);
        if (close == std::string::npos) return error("unclosed alias annotation");
        std::string alias = t_.substr(pos_ + 1, close - pos_ - 1);
        bool bang = !alias.empty() && alias.back() == '!';
        if (bang) alias.pop_back();
        bool letters = !alias.empty();
        for (char a : alias) letters = letters && std::isalpha(static_cast<unsigned char>(a));
        if (!letters) return error("bad alias annotation '(" + t_.substr(pos_ + 1, close - pos_ - 1) + ")'");
        *is_mutable = *is_mutable || bang;
        pos_ = close + 1;
      } else {
        break;
      }
    }
    auto parsed = parse_schema_type(text);
    if (!parsed.ok()) {
      pos_ = start;
      return error("unknown type '" + text +
                   "' (Tensor, int, SymInt, float, bool, str, Scalar, ScalarType, Layout, Device, "
                   "MemoryFormat or Generator, with ?, [] or [N])");
    }
    *type = parsed.get();
    if (*is_mutable && type->base != BaseType::Tensor) {
      pos_ = start;
      return error("only Tensor arguments can be written to (" + text + "(a!))");
    }
    return Error::Ok;
  }

  // The default's text: up to the next ',' or ')' outside brackets and quotes.
  Result<std::string> default_text() {
    skip_ws();
    size_t start = pos_;
    int depth = 0;
    char quote = 0;
    for (; pos_ < t_.size(); ++pos_) {
      char c = t_[pos_];
      if (quote != 0) {
        if (c == quote) quote = 0;
      } else if (c == '\'' || c == '"') {
        quote = c;
      } else if (c == '[') {
        ++depth;
      } else if (c == ']') {
        --depth;
      } else if (depth == 0 && (c == ',' || c == ')')) {
        break;
      }
    }
    if (quote != 0) return error("unterminated string in a default");
    std::string text = t_.substr(start, pos_ - start);
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
    if (text.empty()) return error("empty default value");
    if (text.size() >= 2 && text.front() == '"' && text.back() == '"') {
      text = "'" + text.substr(1, text.size() - 2) + "'";
    }
    std::string compact;  // "[0, 0]" -> "[0,0]", as the table writes lists
    for (char c : text) {
      if (!(text.front() == '[' && c == ' ')) compact += c;
    }
    return compact;
  }

  Error argument(OpSchema* schema, bool kw_only, std::set<std::string>* names) {
    ArgSchema arg;
    arg.kw_only = kw_only;
    EMBER_TRY(type(&arg.type, &arg.is_mutable));
    size_t at = pos_;
    arg.name = ident();
    if (arg.name.empty()) return error("expected an argument name after the type");
    if (!names->insert(arg.name).second) {
      pos_ = at;
      return error("argument '" + arg.name + "' appears twice");
    }
    if (eat('=')) {
      size_t def_at = pos_;
      EMBER_ASSIGN_OR_RETURN(arg.default_text, default_text());
      arg.has_default = true;
      auto value = parse_schema_default(arg.type, arg.default_text);
      if (!value.ok()) {
        pos_ = def_at;
        return error("bad default '" + arg.default_text + "' for " + arg.type.to_string() + " " +
                     arg.name);
      }
      arg.default_value = std::move(value.get());
    }
    schema->args.push_back(std::move(arg));
    return Error::Ok;
  }

  Error arguments(OpSchema* schema) {
    if (eat(')')) return Error::Ok;
    bool kw_only = false;
    std::set<std::string> names;
    while (true) {
      if (eat('*')) {
        if (kw_only) return error("'*' appears twice");
        kw_only = true;
      } else {
        EMBER_TRY(argument(schema, kw_only, &names));
      }
      if (eat(')')) return Error::Ok;
      if (!eat(',')) return error("expected ',' or ')' after an argument");
    }
  }

  Error one_return(OpSchema* schema) {
    SchemaType t;
    bool is_mutable = false;
    EMBER_TRY(type(&t, &is_mutable));
    ident();  // an optional return name: "Tensor values"
    schema->returns.push_back(t);
    return Error::Ok;
  }

  Error returns(OpSchema* schema) {
    if (!eat('(')) return one_return(schema);
    if (eat(')')) return Error::Ok;
    while (true) {
      EMBER_TRY(one_return(schema));
      if (eat(')')) return Error::Ok;
      if (!eat(',')) return error("expected ',' or ')' in the returns");
    }
  }

  const std::string& t_;
  size_t pos_ = 0;
};

// "Tensor?[]" with an alias after "Tensor" when mutable.
std::string type_text(const SchemaType& type, const char* alias) {
  std::string s = type.to_string();
  if (alias != nullptr && type.base == BaseType::Tensor) s.insert(6, alias);
  return s;
}

}  // namespace

Result<OpSchema> parse_function_schema(const std::string& text) {
  return SchemaParser(text).parse();
}

std::string function_schema_text(const OpSchema& schema) {
  static const char* kAliases[] = {"(a!)", "(b!)", "(c!)", "(d!)", "(e!)", "(f!)", "(g!)", "(h!)"};
  std::string s = schema.op.ns + "::" + schema.op.name;
  if (schema.op.overload != "default") s += "." + schema.op.overload;
  s += "(";
  bool kw = false;
  size_t mutated = 0;
  for (size_t i = 0; i < schema.args.size(); ++i) {
    const ArgSchema& a = schema.args[i];
    if (i > 0) s += ", ";
    if (a.kw_only && !kw) {
      s += "*, ";
      kw = true;
    }
    const char* alias = a.is_mutable && mutated < 8 ? kAliases[mutated++] : nullptr;
    s += type_text(a.type, alias) + " " + a.name;
    if (a.has_default) s += "=" + a.default_text;
  }
  s += ") -> ";
  bool aliased = mutated == schema.returns.size();
  if (schema.returns.size() != 1) s += "(";
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    if (i > 0) s += ", ";
    s += type_text(schema.returns[i], aliased && i < 8 ? kAliases[i] : nullptr);
  }
  if (schema.returns.size() != 1) s += ")";
  return s;
}

}  // namespace ember::aot
