// LoweredModule, to_backend, call_lowered and compile-spec plumbing (see lowered_module.h).
#include "aot/delegation/lowered_module.h"

#include "aot/delegation/method_compiler.h"
#include "aot/emit/pte_writer.h"
#include "aot/ir/printer.h"
#include "aot/lowering/emit_lowering.h"
#include "aot/passes/graph_rewrite.h"

namespace ember::aot {
namespace {

bool is_constant_input(const Graph& g, const Argument& in) {
  return in.kind == ArgKind::kTensor && g.value(in.values[0]).tensor.constant != nullptr;
}

void put_u32(std::string* out, size_t v) {
  for (int i = 0; i < 4; ++i) out->push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
}

bool get_u32(const std::string& s, size_t* at, size_t* v) {
  if (s.size() - *at < 4 || *at > s.size()) return false;
  *v = 0;
  for (int i = 0; i < 4; ++i) *v |= size_t(static_cast<uint8_t>(s[*at + i])) << (8 * i);
  *at += 4;
  return true;
}

}  // namespace

std::string encode_compile_specs(const std::vector<EmitCompileSpec>& specs) {
  std::string out;
  put_u32(&out, specs.size());
  for (const EmitCompileSpec& s : specs) {
    put_u32(&out, s.key.size());
    out += s.key;
    put_u32(&out, s.value.size());
    out.append(s.value.begin(), s.value.end());
  }
  return out;
}

StatusOr<std::vector<EmitCompileSpec>> decode_compile_specs(const std::string& text) {
  std::vector<EmitCompileSpec> specs;
  size_t at = 0, n = 0;
  auto bad = [] { return invalid_program("malformed compile-spec metadata on a delegate call"); };
  if (!get_u32(text, &at, &n)) return bad();
  for (size_t i = 0; i < n; ++i) {
    size_t len = 0;
    if (!get_u32(text, &at, &len) || text.size() - at < len) return bad();
    EmitCompileSpec s;
    s.key = text.substr(at, len);
    at += len;
    if (!get_u32(text, &at, &len) || text.size() - at < len) return bad();
    s.value.assign(text.begin() + static_cast<long>(at), text.begin() + static_cast<long>(at + len));
    at += len;
    specs.push_back(std::move(s));
  }
  return specs;
}

Status attach_compile_specs(const Graph& graph, EmitMethod* method) {
  size_t k = 0;
  for (const Node& n : graph.nodes()) {
    if (n.metadata.count(kDelegateBackendKey) == 0) continue;
    if (k >= method->delegates.size()) break;
    auto it = n.metadata.find(kDelegateCompileSpecsKey);
    if (it != n.metadata.end()) {
      EMBER_AOT_ASSIGN_OR_RETURN(method->delegates[k].compile_specs,
                                 decode_compile_specs(it->second));
    }
    ++k;
  }
  if (k != method->delegates.size()) {
    return Status(StatusCode::kInvalidState,
                  "method '" + method->name + "' has " + std::to_string(method->delegates.size()) +
                      " delegates but the graph " + std::to_string(k) + " delegate calls");
  }
  return Status::ok();
}

std::string LoweredModule::to_string() const {
  std::string out = "LoweredModule(backend_id=" + backend_id + ", processed=" +
                    std::to_string(processed.size()) + " bytes, compile_specs=[";
  for (size_t i = 0; i < compile_specs.size(); ++i) {
    out += (i ? ", " : "") + compile_specs[i].key + ":" +
           std::to_string(compile_specs[i].value.size()) + "B";
  }
  return out + "])\noriginal:\n" + print_graph(original);
}

StatusOr<LoweredModule> to_backend(const Graph& edge, const Partitioner& backend,
                                   std::vector<EmitCompileSpec> compile_specs) {
  for (const Node& n : edge.nodes()) {
    Support s = backend.supports(n, edge);
    if (!s.supported) {
      return not_supported(std::string("to_backend(") + backend.backend_id() + "): " +
                           n.describe() + " is not supported: " + s.reason);
    }
  }
  LoweredModule m;
  m.backend_id = backend.backend_id();
  EMBER_AOT_ASSIGN_OR_RETURN(m.processed, backend.preprocess(edge));
  m.compile_specs = std::move(compile_specs);
  m.original = edge;
  return m;
}

StatusOr<std::vector<ValueId>> call_lowered(Graph& graph, const LoweredModule& module,
                                            const std::vector<ValueId>& inputs) {
  const Graph& o = module.original;
  size_t expected = 0;
  for (const Argument& in : o.inputs()) expected += is_constant_input(o, in) ? 0 : 1;
  if (inputs.size() != expected) {
    return invalid_argument("call_lowered: " + std::to_string(inputs.size()) +
                            " inputs given, the lowered module takes " + std::to_string(expected));
  }
  std::vector<NamedArgument> args;
  size_t k = 0;
  for (const Argument& in : o.inputs()) {
    if (is_constant_input(o, in)) continue;
    const ValueId v = inputs[k];
    const std::string want = o.value(in.values[0]).tensor.to_string();
    if (!graph.valid_id(v) || graph.value(v).tensor.to_string() != want) {
      return invalid_argument("call_lowered: input " + std::to_string(k) + " must be " + want);
    }
    args.push_back({"", Argument::tensor(v), false});
    ++k;
  }
  std::vector<Argument> outputs;
  std::vector<ValueId> result;
  for (const Argument& out : o.outputs()) {
    Value v = o.value(out.values[0]);
    v.name = fresh_value_name(graph, "lowered_" + v.name);
    v.tensor.constant = nullptr;
    EMBER_AOT_ASSIGN_OR_RETURN(ValueId id, graph.add_value(std::move(v)));
    outputs.push_back(Argument::tensor(id));
    result.push_back(id);
  }
  Node call;
  call.op = OpName{"ember", "delegate_call", module.backend_id};
  call.target = "ember.delegate_call." + module.backend_id;
  call.name = fresh_value_name(graph, "lowered_call");
  call.inputs = std::move(args);
  call.outputs = std::move(outputs);
  call.metadata[kDelegateBackendKey] = module.backend_id;
  call.metadata[kDelegateBlobKey] = std::string(module.processed.begin(), module.processed.end());
  call.metadata[kDelegateCompileSpecsKey] = encode_compile_specs(module.compile_specs);
  graph.nodes().push_back(std::move(call));
  return result;
}

StatusOr<std::vector<uint8_t>> LoweredModule::to_pte(const std::string& method) const {
  Graph g;
  g.info() = original.info();
  std::vector<ValueId> ins;
  for (size_t i = 0; i < original.inputs().size(); ++i) {
    const Argument& in = original.inputs()[i];
    if (is_constant_input(original, in)) continue;
    EMBER_AOT_ASSIGN_OR_RETURN(ValueId v, g.add_value(original.value(in.values[0])));
    g.inputs().push_back(Argument::tensor(v));
    InputSpec spec = i < original.signature().inputs.size() ? original.signature().inputs[i] : InputSpec{};
    spec.kind = InputKind::kUserInput;
    g.signature().inputs.push_back(spec);
    ins.push_back(v);
  }
  EMBER_AOT_ASSIGN_OR_RETURN(std::vector<ValueId> outs, call_lowered(g, *this, ins));
  for (ValueId v : outs) {
    g.outputs().push_back(Argument::tensor(v));
    g.signature().outputs.push_back({OutputKind::kUserOutput, g.value(v).name, ""});
  }
  EMBER_AOT_ASSIGN_OR_RETURN(EmitProgram program, compile_method(std::move(g), method));
  std::vector<uint8_t> bytes;
  EMBER_AOT_RETURN_IF_ERROR(write_pte(program, &bytes));
  return bytes;
}

}  // namespace ember::aot
