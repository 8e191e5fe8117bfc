// ExportedProgram JSON -> Graph.
#include "aot/frontend/program_json.h"

#include "aot/frontend/cond_json.h"
#include "aot/frontend/node_json.h"
#include "aot/frontend/signature_json.h"
#include "aot/frontend/tensor_meta_json.h"

namespace ember::aot {
namespace {

Error decode_version(const Json& root, ProgramInfo* info) {
  const Json* v = json_field(root, "schema_version");
  if (v == nullptr) return invalid_program("missing 'schema_version'");
  if (v->is_number_integer()) {  // torch 2.1 / 2.2: a plain int
    int64_t major;
    EMBER_TRY(json_int(*v, "schema_version", &major));
    info->schema_major = static_cast<int>(major);
  } else {
    int64_t major = 0, minor = 0;
    EMBER_ASSIGN_OR_RETURN(const Json* mj, json_require(*v, "major", "schema_version"));
    EMBER_TRY(json_int(*mj, "schema_version.major", &major));
    if (const Json* mn = json_field(*v, "minor"))
      EMBER_TRY(json_int(*mn, "schema_version.minor", &minor));
    info->schema_major = static_cast<int>(major);
    info->schema_minor = static_cast<int>(minor);
  }
  if (info->schema_major < 2 || info->schema_major > 8) {
    return not_supported("schema_version " + std::to_string(info->schema_major) + "." +
                         std::to_string(info->schema_minor) + " (supported: 2 .. 8.x)");
  }
  if (const Json* t = json_field(root, "torch_version"))
    EMBER_TRY(json_string(*t, "torch_version", &info->torch_version));
  if (const Json* d = json_field(root, "dialect"))
    EMBER_TRY(json_string(*d, "dialect", &info->dialect));
  if (const Json* ver = json_field(root, "verifiers")) {
    if (ver->is_array() && !ver->empty() && (*ver)[0].is_string())
      info->dialect = (*ver)[0].get<std::string>();
  }
  return Error::Ok;
}

Error decode_ranges(const Json& root, RangeMap* ranges) {
  const Json* rc = json_field(root, "range_constraints");
  if (rc == nullptr) return Error::Ok;
  if (!rc->is_object()) return invalid_program("range_constraints: expected an object");
  for (auto it = rc->begin(); it != rc->end(); ++it) {
    std::string w = "range_constraints['" + it.key() + "']";
    SymRange r;
    for (int side = 0; side < 2; ++side) {
      const Json* b = json_field(*it, side == 0 ? "min_val" : "max_val");
      if (b == nullptr) continue;  // null = unbounded
      double d;
      EMBER_TRY(json_double(*b, w, &d));
      if (!(d > -9.2e18 && d < 9.2e18)) continue;  // +-inf / huge = unbounded
      int64_t v;
      if (b->is_number_integer()) {
        EMBER_TRY(json_int(*b, w, &v));
      } else {
        v = static_cast<int64_t>(d);
      }
      (side == 0 ? r.min : r.max) = v;
    }
    (*ranges)[it.key()] = r;
  }
  return Error::Ok;
}

Error add_values(const Json& graph_json, const RangeMap& ranges, Graph* g) {
  if (const Json* tv = json_field(graph_json, "tensor_values")) {
    if (!tv->is_object()) return invalid_program("tensor_values: expected an object");
    for (auto it = tv->begin(); it != tv->end(); ++it) {
      Value v;
      v.name = it.key();
      EMBER_ASSIGN_OR_RETURN(v.tensor,
                             decode_tensor_meta(*it, ranges, "tensor_values['" + v.name + "']"));
      EMBER_TRY(g->add_value(std::move(v)).error());
    }
  }
  struct SymTable {
    const char* key;
    ValueKind kind;
  };
  for (SymTable t : {SymTable{"sym_int_values", ValueKind::SymInt},
                     SymTable{"sym_float_values", ValueKind::SymFloat},
                     SymTable{"sym_bool_values", ValueKind::SymBool},
                     SymTable{"custom_obj_values", ValueKind::CustomObj}}) {
    const Json* table = json_field(graph_json, t.key);
    if (table == nullptr) continue;
    if (!table->is_object()) return invalid_program(std::string(t.key) + ": expected an object");
    for (auto it = table->begin(); it != table->end(); ++it) {
      Value v;
      v.name = it.key();
      v.kind = t.kind;
      std::string w = std::string(t.key) + "['" + v.name + "']";
      if (t.kind == ValueKind::SymInt) {
        EMBER_ASSIGN_OR_RETURN(v.sym, decode_sym_int(*it, ranges, w));
      } else if (t.kind == ValueKind::CustomObj) {
        if (const Json* c = json_field(*it, "class_fqn"))
          EMBER_TRY(json_string(*c, w, &v.class_fqn));
      }
      EMBER_TRY(g->add_value(std::move(v)).error());
    }
  }
  return Error::Ok;
}

Error decode_arg_list(const Json& graph_json, const char* key, Graph* g,
                      std::vector<Argument>* out) {
  EMBER_ASSIGN_OR_RETURN(const Json* list, json_require(graph_json, key, "graph"));
  if (!list->is_array()) return invalid_program(std::string("graph.") + key + ": expected a list");
  for (size_t i = 0; i < list->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(
        Argument a, decode_argument((*list)[i], *g,
                                    std::string("graph.") + key + "[" + std::to_string(i) + "]"));
    out->push_back(std::move(a));
  }
  return Error::Ok;
}

}  // namespace

Error decode_graph_body(const Json& graph_json, Graph* g) {
  EMBER_TRY(add_values(graph_json, g->range_constraints(), g));
  EMBER_TRY(decode_arg_list(graph_json, "inputs", g, &g->inputs()));
  EMBER_ASSIGN_OR_RETURN(const Json* nodes, json_require(graph_json, "nodes", "graph"));
  if (!nodes->is_array()) return invalid_program("graph.nodes: expected a list");
  std::vector<std::pair<ValueId, ValueId>> aliases;  // wrap results -> their subgraph values
  auto resolve = [&aliases](Argument& a) {
    for (ValueId& v : a.values) {
      for (const auto& [from, to] : aliases) v = v == from ? to : v;
    }
  };
  for (size_t i = 0; i < nodes->size(); ++i) {
    const Json& nj = (*nodes)[i];
    if (is_wrap_node_json(nj)) {  // inlined; grad mode / autocast do not matter here
      EMBER_TRY(decode_wrap_node(nj, i, g, &aliases));
      continue;
    }
    if (is_cond_node_json(nj)) {  // flattened into marker nodes + inlined branch bodies
      EMBER_TRY(decode_cond_node(nj, i, g));
      continue;
    }
    if (is_while_loop_node_json(nj)) {
      EMBER_TRY(decode_while_loop_node(nj, i, g));
      continue;
    }
    if (is_map_node_json(nj)) {
      EMBER_TRY(decode_map_node(nj, i, g));
      continue;
    }
    EMBER_ASSIGN_OR_RETURN(Node n, decode_node(nj, *g, i));
    if (!aliases.empty()) {
      for (NamedArgument& in : n.inputs) resolve(in.arg);
    }
    g->nodes().push_back(std::move(n));
  }
  EMBER_TRY(decode_arg_list(graph_json, "outputs", g, &g->outputs()));
  for (Argument& out : g->outputs()) resolve(out);
  return Error::Ok;
}

namespace {

Error decode_graph(const Json& gm, Graph* g) {
  EMBER_ASSIGN_OR_RETURN(const Json* graph_json, json_require(gm, "graph", "graph_module"));
  EMBER_TRY(decode_graph_body(*graph_json, g));
  EMBER_ASSIGN_OR_RETURN(const Json* sig, json_require(gm, "signature", "graph_module"));
  return decode_signature(*sig, *g, &g->signature());
}

}  // namespace

Error decode_exported_program(const std::string& text, const std::string& what, Graph* graph) {
  EMBER_ASSIGN_OR_RETURN(Json root, parse_json(text, what));
  try {
    if (!root.is_object()) return invalid_program(what + ": top level is not an object");
    EMBER_TRY_CONTEXT(decode_version(root, &graph->info()), what);
    EMBER_TRY_CONTEXT(decode_ranges(root, &graph->range_constraints()), what);
    EMBER_ASSIGN_OR_RETURN(const Json* gm, json_require(root, "graph_module", what));
    EMBER_TRY_CONTEXT(decode_graph(*gm, graph), what);
  } catch (const std::bad_alloc&) {  // out of memory is never "malformed"
    return out_of_memory(what);
  } catch (const std::exception& e) {  // defensive: no JSON exception may escape
    return invalid_program(what + ": unexpected JSON structure: " + e.what());
  }
  return Error::Ok;
}

}  // namespace ember::aot
