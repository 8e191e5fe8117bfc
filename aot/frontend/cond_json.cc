// cond flattening (see cond_json.h).
#include "aot/frontend/cond_json.h"

#include "aot/frontend/node_json.h"
#include "aot/frontend/program_json.h"
#include "aot/ir/control_flow.h"

namespace ember::aot {
namespace {

constexpr const char* kCondTarget = "torch.ops.higher_order.cond";
constexpr const char* kWhileTarget = "torch.ops.higher_order.while_loop";
constexpr const char* kMapTarget = "torch.ops.higher_order.map_impl";

std::string unique_name(const Graph& g, const std::string& base) {
  if (g.find_value(base) == kNoValue) return base;
  for (int k = 1;; ++k) {
    std::string n = base + "_" + std::to_string(k);
    if (g.find_value(n) == kNoValue) return n;
  }
}

// The tensor values of a node output / operand list argument.
Result<std::vector<ValueId>> tensors_of(const Argument& a, const std::string& what) {
  if (a.kind == ArgKind::Tensor) return std::vector<ValueId>{a.values[0]};
  if (a.kind == ArgKind::TensorList) return a.values;
  return not_supported(what + ": cond " + " operands and results must be tensors, got " +
                       to_string(a.kind));
}

Argument remap(Argument a, const std::vector<ValueId>& map) {
  for (ValueId& v : a.values) {
    if (v != kNoValue) v = map[static_cast<size_t>(v)];
  }
  return a;
}

// Decodes subgraph `branch` (as_graph JSON), appends its nodes to *g with its inputs bound to
// `operands`, and returns the values of its results.
Result<std::vector<ValueId>> splice_subgraph(const Json& branch, const std::string& prefix,
                                             const std::vector<ValueId>& operands,
                                             const std::string& what, Graph* g) {
  EMBER_ASSIGN_OR_RETURN(const Json* gj, json_require(branch, "graph", what));
  Graph sub;
  sub.range_constraints() = g->range_constraints();
  EMBER_TRY_CONTEXT(decode_graph_body(*gj, &sub), what);
  if (sub.inputs().size() != operands.size()) {
    return invalid_program(what + ": has " + std::to_string(sub.inputs().size()) + " inputs for " +
                           std::to_string(operands.size()) + " cond operands");
  }
  std::vector<ValueId> map(sub.num_values(), kNoValue);
  for (size_t i = 0; i < operands.size(); ++i) {
    const Argument& in = sub.inputs()[i];
    if (in.kind != ArgKind::Tensor) {
      return not_supported(what + ": input " + std::to_string(i) + " is " + to_string(in.kind) +
                           "; only tensor operands are supported");
    }
    if (g->value(operands[i]).kind != ValueKind::Tensor) {
      return not_supported(what + ": operand '" + g->value(operands[i]).name + "' is not a tensor");
    }
    map[static_cast<size_t>(in.values[0])] = operands[i];
  }
  for (size_t v = 0; v < sub.num_values(); ++v) {
    if (map[v] != kNoValue) continue;
    Value val = sub.value(static_cast<ValueId>(v));
    val.name = unique_name(*g, prefix + val.name);
    EMBER_ASSIGN_OR_RETURN(map[v], g->add_value(std::move(val)));
  }
  for (Node n : sub.nodes()) {
    for (NamedArgument& in : n.inputs) {
      in.arg = remap(std::move(in.arg), map);
      ControlOp c = control_op(n);
      if (in.arg.kind == ArgKind::String && (c == ControlOp::JumpFalse || c == ControlOp::Jump ||
                                             c == ControlOp::Label)) {
        in.arg.s = prefix + in.arg.s;  // labels of nested conds stay unique
      }
    }
    for (Argument& out : n.outputs) out = remap(std::move(out), map);
    n.name = prefix + n.name;
    g->nodes().push_back(std::move(n));
  }
  std::vector<ValueId> srcs;
  for (size_t k = 0; k < sub.outputs().size(); ++k) {
    EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> vs,
                           tensors_of(remap(sub.outputs()[k], map), what + " output"));
    srcs.insert(srcs.end(), vs.begin(), vs.end());
  }
  return srcs;
}

// Appends `op` (move or copy) nodes writing `srcs` into `results`, after checking they match.
Error write_results(const std::vector<ValueId>& srcs, const std::vector<ValueId>& results,
                    const char* op, const std::string& prefix, const std::string& what, Graph* g) {
  if (srcs.size() != results.size()) {
    return invalid_program(what + ": returns " + std::to_string(srcs.size()) + " tensors, cond has " +
                           std::to_string(results.size()) + " results");
  }
  for (size_t k = 0; k < srcs.size(); ++k) {
    const TensorSpec& s = g->value(srcs[k]).tensor;
    const TensorSpec& d = g->value(results[k]).tensor;
    if (s.dtype != d.dtype || s.rank() != d.rank()) {
      return invalid_program(what + ": result " + std::to_string(k) + " is " + s.to_string() +
                             ", cond result '" + g->value(results[k]).name + "' is " + d.to_string());
    }
    g->nodes().push_back(control_node(
        op, {{"src", Argument::tensor(srcs[k]), false}, {"dst", Argument::tensor(results[k]), false}},
        {}, prefix + op + "_" + std::to_string(k), ""));
  }
  return Error::Ok;
}

Error splice_branch(const Json& branch, const std::string& prefix, const std::vector<ValueId>& operands,
                    const std::vector<ValueId>& results, const std::string& what, Graph* g) {
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> srcs, splice_subgraph(branch, prefix, operands, what, g));
  return write_results(srcs, results, "move", prefix, what, g);
}

std::string stack_trace_of(const Json& j) {
  if (const Json* meta = json_field(j, "metadata")) {
    if (const Json* st = json_field(*meta, "stack_trace")) {
      if (st->is_string()) return st->get<std::string>();
    }
  }
  return "";
}

// The tensors of node output list `outputs` and the node's name (none: the first result's
// name, or `fallback` when there are no results).
Result<std::vector<ValueId>> results_of(const Json& j, const std::string& what, const char* fallback,
                                        Graph* g, std::string* name) {
  EMBER_ASSIGN_OR_RETURN(const Json* outputs, json_require(j, "outputs", what));
  if (!outputs->is_array()) return invalid_program(what + ".outputs: expected a list");
  std::vector<ValueId> results;
  for (size_t k = 0; k < outputs->size(); ++k) {
    std::string w = what + ".outputs[" + std::to_string(k) + "]";
    EMBER_ASSIGN_OR_RETURN(Argument a, decode_argument((*outputs)[k], *g, w));
    EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> vs, tensors_of(a, w));
    results.insert(results.end(), vs.begin(), vs.end());
  }
  if (const Json* n = json_field(j, "name")) {
    if (n->is_string()) *name = n->get<std::string>();
  }
  if (name->empty()) *name = results.empty() ? fallback : g->value(results[0]).name;
  return results;
}

Result<std::vector<ValueId>> tensor_list_arg(const Json& inputs, size_t k, const std::string& what,
                                             Graph* g) {
  EMBER_ASSIGN_OR_RETURN(const Json* a, json_require(inputs[k], "arg", what));
  EMBER_ASSIGN_OR_RETURN(Argument arg, decode_argument(*a, *g, what));
  if (arg.kind == ArgKind::None) return std::vector<ValueId>{};
  return tensors_of(arg, what);
}

const Json* graph_arg(const Json& inputs, size_t k) {
  const Json* a = json_field(inputs[k], "arg");
  return a == nullptr ? nullptr : json_field(*a, "as_graph");
}

}  // namespace

bool is_while_loop_node_json(const Json& j) {
  const Json* t = json_field(j, "target");
  return t != nullptr && t->is_string() && t->get<std::string>() == kWhileTarget;
}

Error decode_while_loop_node(const Json& j, size_t index, Graph* g) {
  std::string what = "node " + std::to_string(index) + " (" + kWhileTarget + ")";
  EMBER_ASSIGN_OR_RETURN(const Json* inputs, json_require(j, "inputs", what));
  if (!inputs->is_array() || inputs->size() != 4) {
    return invalid_program(what + ": expected 4 inputs (cond_fn, body_fn, carried, additional)");
  }
  const std::string stack_trace = stack_trace_of(j);
  std::string name;
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> results, results_of(j, what, "hop", g, &name));
  what = "node '" + name + "' (" + kWhileTarget + ")";
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> carried, tensor_list_arg(*inputs, 2, what + " carried", g));
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> extra, tensor_list_arg(*inputs, 3, what + " additional", g));
  const Json* cond_g = graph_arg(*inputs, 0);
  const Json* body_g = graph_arg(*inputs, 1);
  if (cond_g == nullptr || body_g == nullptr) {
    return invalid_program(what + ": cond_fn and body_fn must be graphs (as_graph)");
  }
  if (carried.size() != results.size()) {
    return invalid_program(what + ": " + std::to_string(carried.size()) + " carried values, " +
                           std::to_string(results.size()) + " results");
  }
  // The results are the loop state: initialised by copies (never aliasing the inputs, which
  // the body must not overwrite), read by both subgraphs, rewritten by copies each iteration.
  std::vector<Argument> result_args;
  for (ValueId v : results) result_args.push_back(Argument::tensor(v));
  std::vector<ValueId> state = results;
  state.insert(state.end(), extra.begin(), extra.end());
  const std::string l_loop = name + "_loop", l_end = name + "_end";
  g->nodes().push_back(control_node("cond_outputs", {}, result_args, name, stack_trace));
  EMBER_TRY(write_results(carried, results, "copy", name + "_init_", what + " carried values", g));
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_loop), false}}, {},
                                    name + "_loop", stack_trace));
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> pred,
                         splice_subgraph(*cond_g, name + "_cond_", state, what + " cond_fn", g));
  if (pred.size() != 1) return invalid_program(what + ": cond_fn must return one bool tensor");
  const Value& pv = g->value(pred[0]);
  if (pv.tensor.dtype != ScalarType::Bool || pv.tensor.static_numel() != 1) {
    return invalid_program(what + ": cond_fn returns '" + pv.name + "' " + pv.tensor.to_string() +
                           ", expected a bool tensor with one element");
  }
  g->nodes().push_back(control_node(
      "jump_false", {{"pred", Argument::tensor(pred[0]), false}, {"label", Argument::string(l_end), false}},
      {}, name + "_jump_false", stack_trace));
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> next,
                         splice_subgraph(*body_g, name + "_body_", state, what + " body_fn", g));
  EMBER_TRY(write_results(next, results, "copy", name + "_body_", what + " body_fn", g));
  g->nodes().push_back(control_node("jump", {{"label", Argument::string(l_loop), false}}, {},
                                    name + "_jump", stack_trace));
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_end), false}}, {},
                                    name + "_end", stack_trace));
  return Error::Ok;
}

bool is_map_node_json(const Json& j) {
  const Json* t = json_field(j, "target");
  return t != nullptr && t->is_string() && t->get<std::string>() == kMapTarget;
}

namespace {

Result<ValueId> add_sym_value(Graph* g, const std::string& base, ValueKind kind, SymInt sym) {
  Value v;
  v.name = unique_name(*g, base);
  v.kind = kind;
  v.sym = std::move(sym);
  return g->add_value(std::move(v));
}

// A counter the loop rewrites: symbolic (never folded), starting at 0, in [0, trips].
SymInt counter_sym(const std::string& text, const SymInt& trips) {
  SymInt s;
  s.is_static = false;
  s.text = text;
  s.hint = 0;
  s.range = SymRange{0, trips.is_static ? std::optional<int64_t>(trips.value) : trips.range.max};
  return s;
}

// Row i of `xs`: its spec without the leading dim.
TensorSpec row_spec(const TensorSpec& xs) {
  TensorSpec r;
  r.dtype = xs.dtype;
  r.sizes.assign(xs.sizes.begin() + 1, xs.sizes.end());
  if (xs.strides.size() == xs.sizes.size()) r.strides.assign(xs.strides.begin() + 1, xs.strides.end());
  for (size_t d = 0; d < r.sizes.size(); ++d) r.dim_order.push_back(static_cast<uint8_t>(d));
  return r;
}

Node symbolic_node(const std::string& target, std::vector<NamedArgument> inputs, ValueId out,
                   const std::string& name, const std::string& stack_trace) {
  Node n;
  n.kind = NodeKind::Symbolic;
  n.op = OpName{"", target, ""};
  n.target = target;
  n.inputs = std::move(inputs);
  Argument o;
  o.kind = ArgKind::SymInt;
  o.values = {out};
  n.outputs = {o};
  n.name = name;
  n.stack_trace = stack_trace;
  if (!stack_trace.empty()) n.metadata["stack_trace"] = stack_trace;
  return n;
}

Argument sym_arg(ArgKind kind, ValueId v) {
  Argument a;
  a.kind = kind;
  a.values = {v};
  return a;
}

Argument sym_literal(int64_t v) {
  Argument a;
  a.kind = ArgKind::SymInt;
  a.i = v;
  return a;
}

}  // namespace

Error decode_map_node(const Json& j, size_t index, Graph* g) {
  std::string what = "node " + std::to_string(index) + " (" + kMapTarget + ")";
  EMBER_ASSIGN_OR_RETURN(const Json* inputs, json_require(j, "inputs", what));
  if (!inputs->is_array() || inputs->size() != 3) {
    return invalid_program(what + ": expected 3 inputs (f, xs, args)");
  }
  const std::string stack_trace = stack_trace_of(j);
  std::string name;
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> results, results_of(j, what, "map", g, &name));
  what = "node '" + name + "' (" + kMapTarget + ")";
  const Json* body_g = graph_arg(*inputs, 0);
  if (body_g == nullptr) return invalid_program(what + ": f must be a graph (as_graph)");
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> xs, tensor_list_arg(*inputs, 1, what + " xs", g));
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> extra, tensor_list_arg(*inputs, 2, what + " args", g));
  if (xs.empty()) return invalid_program(what + ": maps over no tensors");
  // The trip count is dim 0 of every xs and of every result.
  const TensorSpec& x0 = g->value(xs[0]).tensor;
  if (x0.rank() == 0) return invalid_program(what + ": xs '" + g->value(xs[0]).name + "' is a scalar");
  const SymInt trips = x0.sizes[0];
  auto same_trips = [&](ValueId v) {
    const TensorSpec& t = g->value(v).tensor;
    return t.rank() > 0 && t.sizes[0].is_static == trips.is_static &&
           (trips.is_static ? t.sizes[0].value == trips.value : t.sizes[0].text == trips.text);
  };
  for (const std::vector<ValueId>* list : {&xs, &results}) {
    for (ValueId v : *list) {
      if (!same_trips(v)) {
        return invalid_program(what + ": '" + g->value(v).name + "' is " + g->value(v).tensor.to_string() +
                               ", expected leading dim " + trips.to_string() + " (that of xs '" +
                               g->value(xs[0]).name + "')");
      }
    }
  }
  std::vector<Argument> defined;
  for (ValueId v : results) defined.push_back(Argument::tensor(v));
  EMBER_ASSIGN_OR_RETURN(ValueId i, add_sym_value(g, name + "_i", ValueKind::SymInt,
                                                  counter_sym(name + "_i", trips)));
  EMBER_ASSIGN_OR_RETURN(ValueId next_i, add_sym_value(g, name + "_next_i", ValueKind::SymInt,
                                                       counter_sym(name + "_next_i", trips)));
  SymInt no_sym;
  no_sym.is_static = false;
  EMBER_ASSIGN_OR_RETURN(ValueId more, add_sym_value(g, name + "_more", ValueKind::SymBool, no_sym));
  defined.push_back(sym_arg(ArgKind::SymInt, i));
  const std::string l_loop = name + "_loop", l_end = name + "_end";
  // cond_outputs defines the stacked results and the counter; move(0, i) resets the counter
  // on every run of the method.
  g->nodes().push_back(control_node("cond_outputs", {}, defined, name, stack_trace));
  g->nodes().push_back(control_node(
      "move", {{"src", sym_literal(0), false}, {"dst", sym_arg(ArgKind::SymInt, i), false}}, {},
      name + "_init_i", stack_trace));
  Argument trips_arg = sym_literal(trips.value);
  if (!trips.is_static) {  // the run-time size of dim 0: aten::sym_size.int(xs[0], 0)
    SymInt t = trips;
    EMBER_ASSIGN_OR_RETURN(ValueId tv, add_sym_value(g, name + "_trips", ValueKind::SymInt, t));
    Node n;
    n.kind = NodeKind::Op;
    n.op = OpName{"aten", "sym_size", "int"};
    n.target = "torch.ops.aten.sym_size.int";
    n.inputs = {{"self", Argument::tensor(xs[0]), false}, {"dim", Argument::integer(0), false}};
    n.outputs = {sym_arg(ArgKind::SymInt, tv)};
    n.name = g->value(tv).name;
    n.stack_trace = stack_trace;
    g->nodes().push_back(std::move(n));
    trips_arg = sym_arg(ArgKind::SymInt, tv);
  }
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_loop), false}}, {},
                                    name + "_loop", stack_trace));
  g->nodes().push_back(symbolic_node("_operator.lt", {{"a", sym_arg(ArgKind::SymInt, i), false},
                                                      {"b", trips_arg, false}},
                                     more, g->value(more).name, stack_trace));
  g->nodes().back().outputs[0].kind = ArgKind::SymBool;
  g->nodes().push_back(control_node(
      "jump_false", {{"pred", sym_arg(ArgKind::SymBool, more), false}, {"label", Argument::string(l_end), false}},
      {}, name + "_jump_false", stack_trace));
  // Row i of each xs (aten.select.int, as torch writes x[i]) feeds the body.
  std::vector<ValueId> operands;
  for (size_t k = 0; k < xs.size(); ++k) {
    Value row;
    row.name = unique_name(*g, name + "_row" + std::to_string(k));
    row.tensor = row_spec(g->value(xs[k]).tensor);
    EMBER_ASSIGN_OR_RETURN(ValueId rv, g->add_value(std::move(row)));
    Node n;
    n.kind = NodeKind::Op;
    n.op = OpName{"aten", "select", "int"};
    n.target = "torch.ops.aten.select.int";
    n.inputs = {{"self", Argument::tensor(xs[k]), false},
                {"dim", Argument::integer(0), false},
                {"index", sym_arg(ArgKind::SymInt, i), false}};
    n.outputs = {Argument::tensor(rv)};
    n.name = g->value(rv).name;
    n.stack_trace = stack_trace;
    if (!stack_trace.empty()) n.metadata["stack_trace"] = stack_trace;
    g->nodes().push_back(std::move(n));
    operands.push_back(rv);
  }
  operands.insert(operands.end(), extra.begin(), extra.end());
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> ys,
                         splice_subgraph(*body_g, name + "_body_", operands, what + " f", g));
  if (ys.size() != results.size()) {
    return invalid_program(what + ": f returns " + std::to_string(ys.size()) + " tensors, map has " +
                           std::to_string(results.size()) + " results");
  }
  for (size_t k = 0; k < ys.size(); ++k) {  // results[k][i] = ys[k]
    const TensorSpec& y = g->value(ys[k]).tensor;
    const TensorSpec& r = g->value(results[k]).tensor;
    if (y.dtype != r.dtype || y.rank() + 1 != r.rank()) {
      return invalid_program(what + ": f result " + std::to_string(k) + " is " + y.to_string() +
                             ", map result '" + g->value(results[k]).name + "' is " + r.to_string());
    }
    g->nodes().push_back(control_node("copy_index",
                                      {{"src", Argument::tensor(ys[k]), false},
                                       {"dst", Argument::tensor(results[k]), false},
                                       {"index", sym_arg(ArgKind::SymInt, i), false}},
                                      {}, name + "_copy_index_" + std::to_string(k), stack_trace));
  }
  g->nodes().push_back(symbolic_node("_operator.add", {{"a", sym_arg(ArgKind::SymInt, i), false},
                                                       {"b", sym_literal(1), false}},
                                     next_i, g->value(next_i).name, stack_trace));
  g->nodes().push_back(control_node(
      "move", {{"src", sym_arg(ArgKind::SymInt, next_i), false}, {"dst", sym_arg(ArgKind::SymInt, i), false}},
      {}, name + "_step", stack_trace));
  g->nodes().push_back(control_node("jump", {{"label", Argument::string(l_loop), false}}, {},
                                    name + "_jump", stack_trace));
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_end), false}}, {},
                                    name + "_end", stack_trace));
  return Error::Ok;
}

bool is_cond_node_json(const Json& j) {
  const Json* t = json_field(j, "target");
  return t != nullptr && t->is_string() && t->get<std::string>() == kCondTarget;
}

Error decode_cond_node(const Json& j, size_t index, Graph* g) {
  std::string what = "node " + std::to_string(index) + " (" + kCondTarget + ")";
  EMBER_ASSIGN_OR_RETURN(const Json* inputs, json_require(j, "inputs", what));
  if (!inputs->is_array() || inputs->size() != 4) {
    return invalid_program(what + ": expected 4 inputs (pred, true_fn, false_fn, operands)");
  }
  const std::string stack_trace = stack_trace_of(j);
  auto arg_of = [&](size_t k) -> Result<const Json*> {
    return json_require((*inputs)[k], "arg", what + ".inputs[" + std::to_string(k) + "]");
  };
  std::string name;
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> results, results_of(j, what, "cond", g, &name));
  what = "node '" + name + "' (" + kCondTarget + ")";
  // Predicate: a one-element bool tensor.
  EMBER_ASSIGN_OR_RETURN(const Json* pj, arg_of(0));
  EMBER_ASSIGN_OR_RETURN(Argument pred, decode_argument(*pj, *g, what + " predicate"));
  // A SymBool value (a shape test computed by executorch_prim ops) is a Bool EValue at run
  // time, which JumpFalseCall reads as well; a constant bool would have been folded by torch.
  const bool sym_pred = pred.kind == ArgKind::SymBool && !pred.values.empty();
  if (!sym_pred && pred.kind != ArgKind::Tensor) {
    return invalid_program(what + ": predicate is " + std::string(to_string(pred.kind)) +
                           ", expected a bool tensor with one element or a symbolic bool");
  }
  const Value& pv = g->value(pred.values[0]);
  if (!sym_pred && (pv.tensor.dtype != ScalarType::Bool || pv.tensor.static_numel() != 1)) {
    return invalid_program(what + ": predicate '" + pv.name + "' is " + pv.tensor.to_string() +
                           ", expected a bool tensor with one element");
  }
  // Operands.
  EMBER_ASSIGN_OR_RETURN(const Json* oj, arg_of(3));
  EMBER_ASSIGN_OR_RETURN(Argument ops, decode_argument(*oj, *g, what + " operands"));
  std::vector<ValueId> operands;
  if (ops.kind != ArgKind::None) {
    EMBER_ASSIGN_OR_RETURN(operands, tensors_of(ops, what + " operands"));
  }
  for (ValueId v : operands) {
    if (g->value(v).kind != ValueKind::Tensor) {
      return not_supported(what + ": operand '" + g->value(v).name + "' is not a tensor");
    }
  }
  // Branches.
  const Json* branches[2];
  for (size_t b = 0; b < 2; ++b) {
    EMBER_ASSIGN_OR_RETURN(const Json* bj, arg_of(1 + b));
    const Json* gr = json_field(*bj, "as_graph");
    if (gr == nullptr) {
      return invalid_program(what + ": input " + std::to_string(1 + b) + " is not a graph (as_graph)");
    }
    branches[b] = gr;
  }
  std::vector<Argument> result_args;
  for (ValueId v : results) result_args.push_back(Argument::tensor(v));
  const std::string l_else = name + "_else", l_end = name + "_end";
  g->nodes().push_back(control_node("cond_outputs", {}, result_args, name, stack_trace));
  g->nodes().push_back(control_node(
      "jump_false", {{"pred", pred, false}, {"label", Argument::string(l_else), false}}, {},
      name + "_jump_false", stack_trace));
  EMBER_TRY(splice_branch(*branches[0], name + "_true_", operands, results, what + " true branch", g));
  g->nodes().push_back(control_node("jump", {{"label", Argument::string(l_end), false}}, {},
                                    name + "_jump", stack_trace));
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_else), false}}, {},
                                    name + "_else", stack_trace));
  EMBER_TRY(splice_branch(*branches[1], name + "_false_", operands, results, what + " false branch", g));
  g->nodes().push_back(control_node("label", {{"label", Argument::string(l_end), false}}, {},
                                    name + "_end", stack_trace));
  return Error::Ok;
}

bool is_wrap_node_json(const Json& j) {
  const Json* t = json_field(j, "target");
  if (t == nullptr || !t->is_string()) return false;
  const std::string target = t->get<std::string>();
  return target == "torch.ops.higher_order.wrap_with_set_grad_enabled" ||
         target == "torch.ops.higher_order.wrap_with_autocast";
}

Error decode_wrap_node(const Json& j, size_t index, Graph* g,
                       std::vector<std::pair<ValueId, ValueId>>* aliases) {
  std::string what =
      "node " + std::to_string(index) + " (" + json_field(j, "target")->get<std::string>() + ")";
  EMBER_ASSIGN_OR_RETURN(const Json* inputs, json_require(j, "inputs", what));
  if (!inputs->is_array()) return invalid_program(what + ".inputs: expected a list");
  size_t k = 0;
  while (k < inputs->size() && graph_arg(*inputs, k) == nullptr) ++k;
  if (k == inputs->size()) return invalid_program(what + ": no subgraph (as_graph) argument");
  std::vector<ValueId> operands;
  for (size_t i = k + 1; i < inputs->size(); ++i) {
    EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> vs,
                           tensor_list_arg(*inputs, i, what + " operand " + std::to_string(i), g));
    operands.insert(operands.end(), vs.begin(), vs.end());
  }
  std::string name;
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> results, results_of(j, what, "wrap", g, &name));
  what = "node '" + name + "' (" + json_field(j, "target")->get<std::string>() + ")";
  EMBER_ASSIGN_OR_RETURN(std::vector<ValueId> srcs,
                         splice_subgraph(*graph_arg(*inputs, k), name + "_", operands, what, g));
  if (srcs.size() != results.size()) {
    return invalid_program(what + ": its subgraph returns " + std::to_string(srcs.size()) +
                           " tensors for " + std::to_string(results.size()) + " results");
  }
  for (size_t r = 0; r < srcs.size(); ++r) aliases->push_back({results[r], srcs[r]});
  return Error::Ok;
}

}  // namespace ember::aot
