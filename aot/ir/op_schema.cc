// OpSchema table parsing, registry, argument binding.
#include "aot/ir/op_schema.h"

#include <cstdlib>
#include <sstream>

#include "aot/ir/op_schema_table.h"

namespace ember::aot {
namespace {

struct BaseName {
  const char* name;
  BaseType type;
};
constexpr BaseName kBaseNames[] = {
    {"Tensor", BaseType::Tensor},
    {"int", BaseType::Int},
    {"SymInt", BaseType::SymInt},
    {"float", BaseType::Float},
    {"bool", BaseType::Bool},
    {"str", BaseType::Str},
    {"Scalar", BaseType::Scalar},
    {"ScalarType", BaseType::ScalarType},
    {"Layout", BaseType::Layout},
    {"Device", BaseType::Device},
    {"MemoryFormat", BaseType::MemoryFormat},
    {"Generator", BaseType::Generator},
};

const char* base_name(BaseType t) {
  for (const BaseName& b : kBaseNames) {
    if (b.type == t) return b.name;
  }
  return "?";
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t\r\n");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t\r\n");
  return s.substr(a, b - a + 1);
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::string cur;
  for (char c : s) {
    if (c == sep) {
      out.push_back(cur);
      cur.clear();
    } else {
      cur += c;
    }
  }
  out.push_back(cur);
  return out;
}

std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> w) out.push_back(w);
  return out;
}

Result<SchemaType> parse_type(std::string t) {
  SchemaType type;
  if (!t.empty() && t.back() == '?') {
    type.optional = true;
    t.pop_back();
  }
  size_t br = t.find('[');
  if (br != std::string::npos) {
    if (t.back() != ']') return invalid_argument("bad list type '" + t + "'");
    std::string n = t.substr(br + 1, t.size() - br - 2);
    type.list = true;
    type.list_size = n.empty() ? 0 : std::atoi(n.c_str());
    t = t.substr(0, br);
    if (!t.empty() && t.back() == '?') {  // Tensor?[]
      type.optional_elements = true;
      t.pop_back();
    }
  }
  for (const BaseName& b : kBaseNames) {
    if (t == b.name) {
      type.base = b.type;
      return type;
    }
  }
  return invalid_argument("unknown type '" + t + "'");
}

Result<Argument> parse_scalar_default(const SchemaType& type, const std::string& text) {
  if (text == "True" || text == "False") return Argument::boolean(text == "True");
  if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'') {
    return Argument::string(text.substr(1, text.size() - 2));
  }
  if (text == "contiguous_format") {
    Argument a;
    a.kind = ArgKind::MemoryFormat;
    a.i = 1;
    return a;
  }
  char* end = nullptr;
  bool is_float = text.find_first_of(".eE") != std::string::npos;
  if (is_float || type.base == BaseType::Float) {
    double v = std::strtod(text.c_str(), &end);
    if (end == text.c_str() || *end != '\0') return invalid_argument("bad default '" + text + "'");
    return Argument::floating(v);
  }
  long long v = std::strtoll(text.c_str(), &end, 10);
  if (end == text.c_str() || *end != '\0') return invalid_argument("bad default '" + text + "'");
  return Argument::integer(v);
}

Result<Argument> parse_default(const SchemaType& type, const std::string& text) {
  if (text == "None") return Argument::none();
  if (!type.list) return parse_scalar_default(type, text);
  std::vector<int64_t> ints;
  std::vector<double> floats;
  bool is_float = type.base == BaseType::Float;
  if (!text.empty() && text.front() == '[') {
    if (text.back() != ']') return invalid_argument("bad list default '" + text + "'");
    std::string body = text.substr(1, text.size() - 2);
    if (!trim(body).empty()) {
      for (const std::string& item : split(body, ',')) {
        EMBER_ASSIGN_OR_RETURN(Argument a, parse_scalar_default(type, trim(item)));
        ints.push_back(a.i);
        floats.push_back(a.f);
      }
    }
  } else {  // a scalar default repeats to the fixed list size: int[2] stride=1 -> [1, 1]
    EMBER_ASSIGN_OR_RETURN(Argument a, parse_scalar_default(type, text));
    int n = type.list_size > 0 ? type.list_size : 1;
    ints.assign(static_cast<size_t>(n), a.i);
    floats.assign(static_cast<size_t>(n), a.f);
  }
  if (is_float) return Argument::float_list(floats);
  if (type.base == BaseType::Bool) {
    Argument a = Argument::int_list(ints);
    a.kind = ArgKind::BoolList;
    return a;
  }
  return Argument::int_list(ints);
}

Result<ArgSchema> parse_arg(std::string w) {
  ArgSchema arg;
  if (!w.empty() && w[0] == '*') {
    arg.kw_only = true;
    w = w.substr(1);
  }
  size_t colon = w.find(':');
  if (colon == std::string::npos || colon == 0)
    return invalid_argument("argument '" + w + "' lacks name:type");
  arg.name = w.substr(0, colon);
  std::string rest = w.substr(colon + 1);
  size_t eq = rest.find('=');
  std::string type_text = rest.substr(0, eq);
  if (!type_text.empty() && type_text.back() == '!') {
    arg.is_mutable = true;
    type_text.pop_back();
  }
  EMBER_ASSIGN_OR_RETURN(arg.type, parse_type(type_text));
  if (eq != std::string::npos) {
    arg.has_default = true;
    arg.default_text = rest.substr(eq + 1);
    auto parsed = parse_default(arg.type, arg.default_text);
    if (!parsed.ok()) return annotate(parsed.error(), "argument '" + arg.name + "'");
    arg.default_value = std::move(parsed.get());
  }
  return arg;
}

bool is_scalar_literal(ArgKind k) {
  return k == ArgKind::Int || k == ArgKind::Float || k == ArgKind::Bool;
}

bool base_matches(BaseType base, const Argument& a) {
  ArgKind k = a.kind;
  switch (base) {
    case BaseType::Tensor:
      return k == ArgKind::Tensor || is_scalar_literal(k);
    case BaseType::Int:
    case BaseType::SymInt:
      return k == ArgKind::Int || k == ArgKind::SymInt || k == ArgKind::Bool;
    case BaseType::Float:
      return k == ArgKind::Float || k == ArgKind::Int || k == ArgKind::SymFloat ||
             k == ArgKind::SymInt;
    case BaseType::Bool:
      return k == ArgKind::Bool || k == ArgKind::SymBool;
    case BaseType::Str:
      return k == ArgKind::String;
    case BaseType::Scalar:
      return is_scalar_literal(k) || k == ArgKind::SymInt || k == ArgKind::SymFloat ||
             k == ArgKind::SymBool;
    case BaseType::ScalarType:
      return k == ArgKind::ScalarType || k == ArgKind::Int;
    case BaseType::Layout:
      return k == ArgKind::Layout || k == ArgKind::Int;
    case BaseType::Device:
      return k == ArgKind::Device || k == ArgKind::String;
    case BaseType::MemoryFormat:
      return k == ArgKind::MemoryFormat || k == ArgKind::Int;
    case BaseType::Generator:
      return false;
  }
  return false;
}

}  // namespace

std::string SchemaType::to_string() const {
  std::string s = base_name(base);
  if (list) {
    if (optional_elements) s += "?";
    s += "[" + (list_size > 0 ? std::to_string(list_size) : std::string()) + "]";
  }
  if (optional) s += "?";
  return s;
}

int OpSchema::arg_index(const std::string& name) const {
  for (size_t i = 0; i < args.size(); ++i) {
    if (args[i].name == name) return static_cast<int>(i);
  }
  return -1;
}

std::string OpSchema::to_string() const {
  std::string s = op.qualified() + "(";
  bool kw = false;
  for (size_t i = 0; i < args.size(); ++i) {
    if (i > 0) s += ", ";
    if (args[i].kw_only && !kw) {
      s += "*, ";
      kw = true;
    }
    s += args[i].type.to_string() + (args[i].is_mutable ? "(!)" : "") + " " + args[i].name;
    if (args[i].has_default) s += "=" + args[i].default_text;
  }
  s += ") -> ";
  if (returns.size() != 1) s += "(";
  for (size_t i = 0; i < returns.size(); ++i) s += (i ? ", " : "") + returns[i].to_string();
  if (returns.size() != 1) s += ")";
  return s;
}

Result<SchemaType> parse_schema_type(const std::string& text) { return parse_type(text); }

Result<Argument> parse_schema_default(const SchemaType& type, const std::string& text) {
  return parse_default(type, text);
}

Result<OpSchema> parse_op_schema_line(const std::string& line) {
  std::vector<std::string> cols = split(line, '|');
  auto fail = [&](const Error& s) { return annotate(s, "schema line '" + trim(line) + "'"); };
  if (cols.size() != 5) return fail(invalid_argument("expected 5 '|'-separated columns"));
  OpSchema schema;
  std::string name = trim(cols[0]);
  size_t sep = name.find("::");
  size_t dot = name.rfind('.');
  if (sep == std::string::npos || dot == std::string::npos || dot < sep) {
    return fail(invalid_argument("op name must be ns::name.overload"));
  }
  schema.op =
      OpName{name.substr(0, sep), name.substr(sep + 2, dot - sep - 2), name.substr(dot + 1)};
  for (const std::string& w : words(cols[1])) {
    if (w == "-") continue;
    auto arg = parse_arg(w);
    if (!arg.ok()) return fail(arg.error());
    schema.args.push_back(std::move(arg.get()));
  }
  for (const std::string& w : words(cols[2])) {
    if (w == "-") continue;
    auto t = parse_type(w);
    if (!t.ok()) return fail(t.error());
    schema.returns.push_back(t.get());
  }
  std::string out = trim(cols[3]);
  schema.out_variant = out == "-" ? "" : out;
  std::string flags = trim(cols[4]);
  schema.is_view = flags == "view";
  schema.is_inplace = flags == "inplace";
  if (flags != "-" && !schema.is_view && !schema.is_inplace) {
    return fail(invalid_argument("unknown flag '" + flags + "'"));
  }
  return schema;
}

Error OpSchemaRegistry::add(OpSchema schema) {
  std::string key = schema.op.qualified();
  if (schemas_.count(key) != 0) return invalid_argument("schema " + key + " registered twice");
  schemas_.emplace(key, std::move(schema));
  return Error::Ok;
}

Error OpSchemaRegistry::add_table(const std::string& table) {
  for (const std::string& raw : split(table, '\n')) {
    std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    EMBER_ASSIGN_OR_RETURN(OpSchema schema, parse_op_schema_line(line));
    EMBER_TRY(add(std::move(schema)));
  }
  return Error::Ok;
}

const OpSchema* OpSchemaRegistry::find(const OpName& op) const { return find(op.qualified()); }

const OpSchema* OpSchemaRegistry::find(const std::string& qualified) const {
  auto it = schemas_.find(qualified);
  return it == schemas_.end() ? nullptr : &it->second;
}

namespace {
struct Builtin {
  OpSchemaRegistry registry;
  Error status = Error::Ok;
  std::string text;  // the generated aten lines, then the hand-written ones
  Builtin() {
    for (const OpSchemaLines* table : {&kAtenOutVariantOpSchemas, &kAtenCompositeOpSchemas,
                                       &kAtenInplaceOpSchemas, &kAtenViewOpSchemas}) {
      for (size_t i = 0; i < table->count; ++i) {
        text += table->lines[i];
        text += '\n';
      }
    }
    text += handwritten_op_schema_table();
    status = registry.add_table(text);
    if (status != Error::Ok) registry = OpSchemaRegistry();
  }
};
const Builtin& builtin() {
  static const Builtin* b = new Builtin();  // never destroyed; built on first use
  return *b;
}
}  // namespace

const OpSchemaRegistry& builtin_op_schemas() { return builtin().registry; }

const char* builtin_op_schema_table() { return builtin().text.c_str(); }

const OpSchema* find_op_schema(const Graph& graph, const std::string& qualified) {
  const OpSchema* s = builtin_op_schemas().find(qualified);
  if (s == nullptr && graph.custom_op_schemas() != nullptr) {
    s = graph.custom_op_schemas()->find(qualified);
  }
  return s;
}

const OpSchema* find_op_schema(const Graph& graph, const OpName& op) {
  return find_op_schema(graph, op.qualified());
}
Error builtin_op_schema_status() { return builtin().status; }

namespace {

std::vector<std::string> out_names(const OpSchema& schema) {
  const std::string& name = schema.op.name;
  size_t n = schema.returns.size();
  if (n == 1) return {"out"};
  if (name == "max_pool2d_with_indices") return {"out", "indices"};
  if (name == "native_batch_norm") return {"out", "save_mean", "save_invstd"};
  if (name == "max" && schema.op.overload == "dim") return {"max", "max_values"};
  if (name == "topk" || name == "sort") return {"values", "indices"};
  if (name == "choose_qparams") return {"scale_out", "zero_point_out"};
  std::vector<std::string> names;
  for (size_t i = 0; i < n; ++i) names.push_back("out" + std::to_string(i));
  return names;
}

bool is_tensor_option(const std::string& name) {
  return name == "dtype" || name == "layout" || name == "device" || name == "pin_memory";
}

}  // namespace

Result<OpSchema> derive_out_variant_schema(const OpSchema& schema) {
  if (schema.out_variant.empty()) {
    return not_found(schema.op.qualified() + " has no out variant");
  }
  const std::string& q = schema.out_variant;
  size_t sep = q.find("::");
  size_t dot = q.rfind('.');
  if (sep == std::string::npos || dot == std::string::npos || dot < sep) {
    return invalid_argument("out variant '" + q + "' is not ns::name.overload");
  }
  OpSchema out;
  out.op = OpName{q.substr(0, sep), q.substr(sep + 2, dot - sep - 2), q.substr(dot + 1)};
  bool factory = schema.arg_index("layout") >= 0 && schema.arg_index("device") >= 0;
  for (const ArgSchema& a : schema.args) {
    if (factory && a.kw_only && is_tensor_option(a.name)) continue;
    out.args.push_back(a);
  }
  std::vector<std::string> names = out_names(schema);
  for (size_t i = 0; i < schema.returns.size(); ++i) {
    ArgSchema o;
    o.name = names[i];
    o.type = schema.returns[i];
    o.kw_only = true;
    o.is_mutable = true;
    out.args.push_back(o);
    out.returns.push_back(schema.returns[i]);
  }
  return out;
}

bool argument_matches(const SchemaType& type, const Argument& arg) {
  if (arg.kind == ArgKind::None) return type.optional;
  if (!type.list) return base_matches(type.base, arg);
  switch (type.base) {
    case BaseType::Tensor:
      return arg.kind == ArgKind::TensorList || arg.kind == ArgKind::OptionalTensorList;
    case BaseType::Int:
    case BaseType::SymInt:
      return arg.kind == ArgKind::IntList || arg.kind == ArgKind::SymIntList ||
             (type.list_size > 0 && (arg.kind == ArgKind::Int || arg.kind == ArgKind::SymInt));
    case BaseType::Float:
      return arg.kind == ArgKind::FloatList || arg.kind == ArgKind::IntList;
    case BaseType::Bool:
      return arg.kind == ArgKind::BoolList;
    case BaseType::Str:
      return arg.kind == ArgKind::StringList;
    default:
      return false;
  }
}

Result<std::vector<Argument>> bind_arguments(const OpSchema& schema, const Node& node) {
  // A custom operator's errors point at its declaration (the YAML file and line).
  const std::string declared =
      schema.declared_at.empty() ? "" : " (declared at " + schema.declared_at + ")";
  for (const NamedArgument& in : node.inputs) {
    if (schema.arg_index(in.name) < 0) {
      return invalid_program(node.describe() + ": argument '" + in.name +
                             "' is not in the schema " + schema.to_string() + declared);
    }
  }
  std::vector<Argument> out;
  out.reserve(schema.args.size());
  for (const ArgSchema& a : schema.args) {
    const NamedArgument* in = node.find_input(a.name);
    if (in == nullptr) {
      if (!a.has_default) {
        return invalid_program(node.describe() + ": required argument '" + a.name + "' (" +
                               a.type.to_string() + ") is missing" + declared);
      }
      out.push_back(a.default_value);
      continue;
    }
    if (!argument_matches(a.type, in->arg)) {
      return invalid_program(node.describe() + ": argument '" + a.name + "' expects " +
                             a.type.to_string() + ", got " + to_string(in->arg.kind) + declared);
    }
    out.push_back(in->arg);
  }
  return out;
}

}  // namespace ember::aot
