// Custom operator declarations -> functional schemas (see custom_ops.h).
#include "aot/ir/custom_ops.h"

#include <map>

#include "aot/ir/function_schema.h"

namespace ember::aot {
namespace {

struct Parsed {
  OpSchema schema;
  std::string where;
  size_t num_out = 0;  // trailing keyword-only mutable Tensor arguments
};

Error at(const std::string& where, const std::string& message) {
  return invalid_argument(where + ": " + message);
}

size_t trailing_out_args(const OpSchema& s) {
  size_t n = 0;
  for (size_t i = s.args.size(); i > 0; --i) {
    const ArgSchema& a = s.args[i - 1];
    if (!(a.kw_only && a.is_mutable && a.type.base == BaseType::Tensor)) break;
    ++n;
  }
  return n;
}

bool is_out_overload(const std::string& overload) {
  return overload == "out" ||
         (overload.size() > 4 && overload.compare(overload.size() - 4, 4, "_out") == 0);
}

std::string functional_overload(const std::string& out_overload) {
  return out_overload == "out" ? "default" : out_overload.substr(0, out_overload.size() - 4);
}

Result<Parsed> parse(const CustomOpDeclaration& d) {
  auto schema = parse_function_schema(d.func);
  if (!schema.ok()) return annotate(schema.error(), d.where + ": func '" + d.func + "'");
  Parsed p{std::move(schema.get()), d.where, 0};
  p.schema.declared_at = d.where;
  const std::string name = p.schema.op.qualified();
  if (p.schema.op.ns == "aten") {
    return at(d.where, name + ": the aten namespace is built in; custom operators use their own "
                              "namespace (mylib::...)");
  }
  p.num_out = trailing_out_args(p.schema);
  for (size_t i = 0; i + p.num_out < p.schema.args.size(); ++i) {
    if (p.schema.args[i].is_mutable) {
      return at(d.where, name + ": argument '" + p.schema.args[i].name +
                             "' is written to but is not a trailing keyword-only out argument; "
                             "in-place custom operators are not supported");
    }
  }
  if (is_out_overload(p.schema.op.overload)) {
    if (p.num_out == 0 || p.num_out != p.schema.returns.size()) {
      return at(d.where, name + ": an out variant ends with one keyword-only Tensor(a!) argument "
                                "per return (*, Tensor(a!) out) -> Tensor(a!); it has " +
                                std::to_string(p.num_out) + " for " +
                                std::to_string(p.schema.returns.size()) + " return(s)");
    }
  } else if (p.num_out != 0) {
    return at(d.where, name + ": has Tensor(a!) out arguments but its overload is not 'out' or "
                              "'<name>_out'");
  }
  return p;
}

OpSchema functional_of(const Parsed& out) {
  OpSchema f;
  f.op = out.schema.op;
  f.op.overload = functional_overload(out.schema.op.overload);
  f.args.assign(out.schema.args.begin(), out.schema.args.end() - static_cast<long>(out.num_out));
  f.returns = out.schema.returns;
  f.out_variant = out.schema.op.qualified();
  f.declared_at = out.where;
  return f;
}

// Whether two argument lists agree in names, types, keyword-only marks and defaults.
std::string mismatch(const OpSchema& declared, const OpSchema& derived) {
  if (declared.args.size() != derived.args.size()) {
    return std::to_string(declared.args.size()) + " arguments, the out variant has " +
           std::to_string(derived.args.size()) + " besides its out arguments";
  }
  for (size_t i = 0; i < declared.args.size(); ++i) {
    const ArgSchema& a = declared.args[i];
    const ArgSchema& b = derived.args[i];
    if (a.name != b.name || a.type.to_string() != b.type.to_string() || a.kw_only != b.kw_only ||
        a.default_text != b.default_text) {
      return "argument " + std::to_string(i) + " is '" + a.type.to_string() + " " + a.name +
             "', the out variant's is '" + b.type.to_string() + " " + b.name + "'";
    }
  }
  if (declared.returns.size() != derived.returns.size()) {
    return std::to_string(declared.returns.size()) + " returns, the out variant has " +
           std::to_string(derived.returns.size());
  }
  return "";
}

}  // namespace

Result<std::shared_ptr<const OpSchemaRegistry>> custom_op_schemas(
    const std::vector<CustomOpDeclaration>& declarations) {
  std::vector<Parsed> outs;
  std::map<std::string, Parsed> functionals;  // declared functional ops, by name
  std::map<std::string, std::string> seen;     // name -> where
  for (const CustomOpDeclaration& d : declarations) {
    EMBER_ASSIGN_OR_RETURN(Parsed p, parse(d));
    const std::string name = p.schema.op.qualified();
    auto [it, fresh] = seen.emplace(name, d.where);
    if (!fresh) return at(d.where, name + " is already declared at " + it->second);
    if (p.num_out != 0) {
      outs.push_back(std::move(p));
    } else {
      functionals.emplace(name, std::move(p));
    }
  }
  auto registry = std::make_shared<OpSchemaRegistry>();
  for (const Parsed& out : outs) {
    OpSchema f = functional_of(out);
    auto declared = functionals.find(f.op.qualified());
    if (declared != functionals.end()) {
      std::string why = mismatch(declared->second.schema, f);
      if (!why.empty()) {
        return at(declared->second.where, f.op.qualified() + " disagrees with its out variant " +
                                              out.schema.op.qualified() + " (" + out.where +
                                              "): it has " + why);
      }
      functionals.erase(declared);
    }
    EMBER_TRY(registry->add(std::move(f)));
  }
  if (!functionals.empty()) {
    const Parsed& f = functionals.begin()->second;
    const OpName& op = f.schema.op;
    std::string out = op.ns + "::" + op.name + "." +
                      (op.overload == "default" ? std::string("out") : op.overload + "_out");
    return at(f.where, op.qualified() + " has no out variant: declare " + out +
                           "(..., *, Tensor(a!) out) -> Tensor(a!) as well; the runtime calls "
                           "out variants only");
  }
  return std::shared_ptr<const OpSchemaRegistry>(std::move(registry));
}

}  // namespace ember::aot
