// Argument / Node JSON decoding.
#include "aot/frontend/node_json.h"

namespace ember::aot {
namespace {

Result<ValueId> lookup(const Graph& g, const Json& j, const char* key, const std::string& what) {
  std::string name;
  if (j.is_string()) {
    name = j.get<std::string>();
  } else {
    EMBER_ASSIGN_OR_RETURN(const Json* n, json_require(j, key, what));
    EMBER_TRY(json_string(*n, what + "." + key, &name));
  }
  ValueId id = g.find_value(name);
  if (id == kNoValue) {
    return invalid_program(what + ": refers to '" + name +
                           "', which has no entry in tensor_values / sym_*_values");
  }
  return id;
}

Error need_array(const Json& j, const std::string& what) {
  return j.is_array() ? Error::Ok : invalid_program(what + ": expected a list");
}

// {"as_name": v} | {"as_int": n} (and as_float / as_bool for SymFloat / SymBool).
Error decode_sym_scalar(const Json& j, Graph& g, const char* literal, const std::string& what,
                         Argument* a, size_t slot) {
  EMBER_ASSIGN_OR_RETURN(auto v, json_union(j, what));
  if (v.first == "as_name") {
    EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, *v.second, "name", what));
    a->values[slot] = id;
    return Error::Ok;
  }
  if (v.first != literal) return invalid_program(what + ": unexpected variant '" + v.first + "'");
  if (a->kind == ArgKind::SymFloat) return json_double(*v.second, what, &a->f);
  if (a->kind == ArgKind::SymBool) return json_bool(*v.second, what, &a->b);
  return json_int(*v.second, what, &a->ints[slot]);
}

Error decode_list(const std::string& kind, const Json& v, Graph& g, const std::string& what,
                   Argument* a) {
  EMBER_TRY(need_array(v, what));
  for (size_t i = 0; i < v.size(); ++i) {
    std::string w = what + "[" + std::to_string(i) + "]";
    const Json& e = v[i];
    if (kind == "as_ints") {
      a->kind = ArgKind::IntList;
      int64_t x;
      EMBER_TRY(json_int(e, w, &x));
      a->ints.push_back(x);
    } else if (kind == "as_floats") {
      a->kind = ArgKind::FloatList;
      double x;
      EMBER_TRY(json_double(e, w, &x));
      a->floats.push_back(x);
    } else if (kind == "as_bools") {
      a->kind = ArgKind::BoolList;
      bool x;
      EMBER_TRY(json_bool(e, w, &x));
      a->ints.push_back(x);
    } else if (kind == "as_strings") {
      a->kind = ArgKind::StringList;
      std::string x;
      EMBER_TRY(json_string(e, w, &x));
      a->strings.push_back(x);
    } else if (kind == "as_tensors") {
      a->kind = ArgKind::TensorList;
      EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, e, "name", w));
      a->values.push_back(id);
    } else if (kind == "as_sym_ints") {
      a->kind = ArgKind::SymIntList;
      a->ints.push_back(0);
      a->values.push_back(kNoValue);
      EMBER_TRY(decode_sym_scalar(e, g, "as_int", w, a, i));
    } else {  // as_optional_tensors
      a->kind = ArgKind::OptionalTensorList;
      EMBER_ASSIGN_OR_RETURN(auto ev, json_union(e, w));
      if (ev.first == "as_none") {
        a->values.push_back(kNoValue);
      } else if (ev.first == "as_tensor") {
        EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, *ev.second, "name", w));
        a->values.push_back(id);
      } else {
        return invalid_program(w + ": unexpected variant '" + ev.first + "'");
      }
    }
  }
  return Error::Ok;
}

Error decode_enum(const std::string& kind, const Json& v, const std::string& what, Argument* a) {
  EMBER_TRY(json_int(v, what, &a->i));
  if (kind == "as_scalar_type") {
    a->kind = ArgKind::ScalarType;
    auto t = pt2_scalar_type(a->i);
    if (!t.ok()) return annotate(t.error(), what);
    a->dtype = t.get();
  } else if (kind == "as_memory_format") {
    a->kind = ArgKind::MemoryFormat;
    if (a->i < 0 || a->i > 4)
      return invalid_program(what + ": unknown memory format " + std::to_string(a->i));
  } else {
    a->kind = ArgKind::Layout;
  }
  return Error::Ok;
}

// Literal variants (scalars, enums, devices); *handled = false for the rest.
Error decode_literal(const std::string& kind, const Json& v, const std::string& w, Argument* out,
                      bool* handled) {
  Argument& a = *out;
  if (kind == "as_int") {
    a.kind = ArgKind::Int;
    EMBER_TRY(json_int(v, w, &a.i));
  } else if (kind == "as_float") {
    a.kind = ArgKind::Float;
    EMBER_TRY(json_double(v, w, &a.f));
  } else if (kind == "as_bool") {
    a.kind = ArgKind::Bool;
    EMBER_TRY(json_bool(v, w, &a.b));
  } else if (kind == "as_string") {
    a.kind = ArgKind::String;
    EMBER_TRY(json_string(v, w, &a.s));
  } else if (kind == "as_scalar_type" || kind == "as_memory_format" || kind == "as_layout") {
    EMBER_TRY(decode_enum(kind, v, w, &a));
  } else if (kind == "as_device") {
    a.kind = ArgKind::Device;
    a.i = -1;
    EMBER_ASSIGN_OR_RETURN(const Json* type, json_require(v, "type", w));
    EMBER_TRY(json_string(*type, w + ".type", &a.s));
    if (const Json* index = json_field(v, "index"))
      EMBER_TRY(json_int(*index, w + ".index", &a.i));
  } else {
    *handled = false;
  }
  return Error::Ok;
}

}  // namespace

Result<Argument> decode_argument(const Json& j, Graph& g, const std::string& what) {
  EMBER_ASSIGN_OR_RETURN(auto variant, json_union(j, what));
  const std::string& kind = variant.first;
  const Json& v = *variant.second;
  std::string w = what + "." + kind;
  Argument a;
  if (kind == "as_none") return a;
  if (kind == "as_tensor" || kind == "as_optional_tensor") {
    if (kind == "as_optional_tensor") {
      EMBER_ASSIGN_OR_RETURN(auto inner, json_union(v, w));
      if (inner.first == "as_none") return a;
      EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, *inner.second, "name", w));
      return Argument::tensor(id);
    }
    EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, v, "name", w));
    return Argument::tensor(id);
  }
  bool handled = true;
  EMBER_TRY(decode_literal(kind, v, w, &a, &handled));
  if (handled) return a;
  if (kind == "as_ints" || kind == "as_floats" || kind == "as_bools" || kind == "as_strings" ||
      kind == "as_tensors" || kind == "as_sym_ints" || kind == "as_optional_tensors") {
    EMBER_TRY(decode_list(kind, v, g, w, &a));
    if (v.empty()) {  // an empty list keeps the kind its variant names
      a.kind = kind == "as_ints"       ? ArgKind::IntList
               : kind == "as_floats"   ? ArgKind::FloatList
               : kind == "as_bools"    ? ArgKind::BoolList
               : kind == "as_strings"  ? ArgKind::StringList
               : kind == "as_sym_ints" ? ArgKind::SymIntList
               : kind == "as_tensors"  ? ArgKind::TensorList
                                       : ArgKind::OptionalTensorList;
    }
  } else if (kind == "as_sym_int" || kind == "as_sym_float" || kind == "as_sym_bool") {
    a.kind = kind == "as_sym_int"     ? ArgKind::SymInt
             : kind == "as_sym_float" ? ArgKind::SymFloat
                                      : ArgKind::SymBool;
    a.values = {kNoValue};
    a.ints = {0};
    const char* literal = kind == "as_sym_int"     ? "as_int"
                          : kind == "as_sym_float" ? "as_float"
                                                   : "as_bool";
    EMBER_TRY(decode_sym_scalar(v, g, literal, w, &a, 0));
    if (a.values[0] == kNoValue) a.values.clear();
    a.i = a.ints[0];
    a.ints.clear();
  } else if (kind == "as_custom_obj") {
    a.kind = ArgKind::CustomObj;
    EMBER_ASSIGN_OR_RETURN(ValueId id, lookup(g, v, "name", w));
    a.values = {id};
  } else if (kind == "as_operator") {
    a.kind = ArgKind::Operator;
    EMBER_TRY(json_string(v, w, &a.s));
  } else if (kind == "as_graph" || kind == "as_sym_floats" || kind == "as_sym_bools" ||
             kind == "as_complex" || kind == "as_nested_tensors" || kind == "as_int_lists" ||
             kind == "as_float_lists" || kind == "as_string_to_argument") {
    return not_supported(what + ": argument kind '" + kind + "' is not supported" +
                         (kind == "as_graph" ? " (higher-order op subgraph)" : ""));
  } else {
    return invalid_program(what + ": unknown argument kind '" + kind + "'");
  }
  return a;
}

// `x.add_(n)` with a symbolic int n (transformers' static cache does
// `cumulative_length.add_(seq_len)`) is exported as add_.Tensor whose 'other' is a SymInt: in
// eager PyTorch a wrapped number. The .Scalar overload takes it as it is (a run-time int).
void use_scalar_overload_for_symbolic_other(Node* n) {
  static const char* const kOps[] = {"add", "add_", "sub", "sub_", "mul", "mul_", "div", "div_"};
  if (n->kind != NodeKind::Op || n->op.ns != "aten" || n->op.overload != "Tensor") return;
  bool listed = false;
  for (const char* op : kOps) listed = listed || n->op.name == op;
  const NamedArgument* other = n->find_input("other");
  if (!listed || other == nullptr) return;
  const ArgKind k = other->arg.kind;
  if (k == ArgKind::SymInt || k == ArgKind::SymFloat) n->op.overload = "Scalar";
}

Result<Node> decode_node(const Json& j, Graph& g, size_t index) {
  std::string what = "node " + std::to_string(index);
  Node n;
  EMBER_ASSIGN_OR_RETURN(const Json* target, json_require(j, "target", what));
  EMBER_TRY(json_string(*target, what + ".target", &n.target));
  what += " (" + n.target + ")";
  auto parsed = parse_node_target(n.target);
  if (!parsed.ok()) return annotate(parsed.error(), what);
  n.kind = parsed->first;
  n.op = parsed->second;
  if (const Json* meta = json_field(j, "metadata")) {
    if (!meta->is_object()) return invalid_program(what + ".metadata: expected an object");
    for (auto it = meta->begin(); it != meta->end(); ++it) {
      if (it->is_string()) n.metadata[it.key()] = it->get<std::string>();
    }
    auto st = n.metadata.find("stack_trace");
    if (st != n.metadata.end()) n.stack_trace = st->second;
  }
  if (const Json* name = json_field(j, "name"))
    EMBER_TRY(json_string(*name, what + ".name", &n.name));
  EMBER_ASSIGN_OR_RETURN(const Json* inputs, json_require(j, "inputs", what));
  EMBER_TRY(need_array(*inputs, what + ".inputs"));
  for (size_t i = 0; i < inputs->size(); ++i) {
    const Json& in = (*inputs)[i];
    std::string w = what + ".inputs[" + std::to_string(i) + "]";
    NamedArgument na;
    if (const Json* name = json_field(in, "name"))
      EMBER_TRY(json_string(*name, w + ".name", &na.name));
    w = what + " argument '" + na.name + "'";
    EMBER_ASSIGN_OR_RETURN(const Json* arg, json_require(in, "arg", w));
    EMBER_ASSIGN_OR_RETURN(na.arg, decode_argument(*arg, g, w));
    if (const Json* kind = json_field(in, "kind")) {
      int64_t k;
      EMBER_TRY(json_int(*kind, w + ".kind", &k));
      na.keyword = k == 2;
    }
    n.inputs.push_back(std::move(na));
  }
  EMBER_ASSIGN_OR_RETURN(const Json* outputs, json_require(j, "outputs", what));
  EMBER_TRY(need_array(*outputs, what + ".outputs"));
  for (size_t i = 0; i < outputs->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        Argument out,
        decode_argument((*outputs)[i], g, what + ".outputs[" + std::to_string(i) + "]"));
    n.outputs.push_back(std::move(out));
  }
  use_scalar_overload_for_symbolic_other(&n);
  for (const Argument& out : n.outputs) {  // multi-output nodes: "<node>_unused_<i>"
    if (!n.name.empty() || !out.is_value_ref()) continue;
    const std::string& vname = g.value(out.value()).name;
    size_t pos = vname.rfind("_unused_");
    if (pos != std::string::npos && pos > 0) n.name = vname.substr(0, pos);
  }
  if (n.name.empty()) {
    for (const Argument& out : n.outputs) {
      ValueId id =
          out.kind == ArgKind::TensorList && !out.values.empty() ? out.values[0] : out.value();
      if (id != kNoValue) {
        n.name = g.value(id).name;
        break;
      }
    }
    if (n.name.empty()) n.name = n.op.name;
  }
  return n;
}

}  // namespace ember::aot
