// Text and JSON summaries of a .pt2 graph (see pt2_summary.h).
#include "apps/inspect/pt2_summary.h"

#include <map>
#include <nlohmann/json.hpp>

#include "aot/ir/op_schema.h"
#include "aot/ir/printer.h"

namespace ember::aot {
namespace {

struct StateTotals {
  int tensors = 0;
  int64_t elements = 0;
  int64_t bytes = 0;
};

struct Summary {
  std::vector<std::pair<std::string, const TensorSpec*>> inputs, outputs;
  std::map<std::string, int> ops;
  std::map<std::string, StateTotals> state;  // "parameters", "buffers", "constants"
  int non_persistent_buffers = 0;
  std::vector<std::string> mutations;
};

Summary collect(const Graph& g) {
  Summary s;
  const GraphSignature& sig = g.signature();
  for (size_t i = 0; i < g.inputs().size() && i < sig.inputs.size(); ++i) {
    ValueId id = g.inputs()[i].value();
    if (id == kNoValue || g.value(id).kind != ValueKind::Tensor) continue;
    const TensorSpec& t = g.value(id).tensor;
    const char* bucket = nullptr;
    switch (sig.inputs[i].kind) {
      case InputKind::UserInput:
        s.inputs.emplace_back(g.value(id).name, &t);
        continue;
      case InputKind::Parameter:
        bucket = "parameters";
        break;
      case InputKind::Buffer:
        bucket = "buffers";
        if (!sig.inputs[i].persistent) ++s.non_persistent_buffers;
        break;
      case InputKind::TensorConstant:
        bucket = "constants";
        break;
      default:
        continue;
    }
    StateTotals& st = s.state[bucket];
    ++st.tensors;
    st.elements += std::max<int64_t>(t.static_numel(), 0);
    st.bytes += std::max<int64_t>(t.static_nbytes(), 0);
  }
  for (size_t i = 0; i < g.outputs().size() && i < sig.outputs.size(); ++i) {
    ValueId id = g.outputs()[i].value();
    if (sig.outputs[i].kind == OutputKind::UserOutput && id != kNoValue &&
        g.value(id).kind == ValueKind::Tensor) {
      s.outputs.emplace_back(g.value(id).name, &g.value(id).tensor);
    } else if (sig.outputs[i].kind == OutputKind::BufferMutation) {
      s.mutations.push_back(sig.outputs[i].target + " <- %" + sig.outputs[i].name);
    }
  }
  for (const Node& n : g.nodes()) ++s.ops[n.op.qualified()];
  return s;
}

}  // namespace

std::string summarize_pt2_text(const Graph& g, bool with_graph) {
  Summary s = collect(g);
  const ProgramInfo& info = g.info();
  std::string out = "file: " + info.source + "\n  layout " + info.layout + ", schema " +
                    std::to_string(info.schema_major) + "." + std::to_string(info.schema_minor) +
                    (info.torch_version.empty() ? "" : ", torch " + info.torch_version) +
                    (info.dialect.empty() ? "" : ", dialect " + info.dialect) + "\n";
  out += "inputs:\n";
  for (const auto& [name, t] : s.inputs) out += "  " + name + " : " + t->to_string() + "\n";
  out += "outputs:\n";
  for (const auto& [name, t] : s.outputs) out += "  " + name + " : " + t->to_string() + "\n";
  if (!g.range_constraints().empty()) {
    out += "symbols:\n";
    for (const auto& [sym, r] : g.range_constraints())
      out += "  " + sym + " in " + r.to_string() + "\n";
  }
  out += "ops (" + std::to_string(g.nodes().size()) + " nodes):\n";
  for (const auto& [op, count] : s.ops) {
    bool known = op.find("::") == std::string::npos || builtin_op_schemas().find(op) != nullptr;
    out += "  " + std::to_string(count) + "  " + op + (known ? "" : "  (no schema)") + "\n";
  }
  out += "state:\n";
  for (const char* bucket : {"parameters", "buffers", "constants"}) {
    StateTotals st = s.state[bucket];
    out += std::string("  ") + bucket + ": " + std::to_string(st.tensors) + " tensors, " +
           std::to_string(st.elements) + " elements, " + std::to_string(st.bytes) + " bytes\n";
  }
  if (s.non_persistent_buffers > 0) {
    out += "  (" + std::to_string(s.non_persistent_buffers) + " non-persistent buffers)\n";
  }
  for (const std::string& m : s.mutations) out += "  mutation: " + m + "\n";
  if (with_graph) out += "graph:\n" + print_graph(g, PrintOptions{false, true});
  return out;
}

std::string summarize_pt2_json(const Graph& g, bool with_graph) {
  Summary s = collect(g);
  nlohmann::ordered_json j;
  const ProgramInfo& info = g.info();
  j["file"] = info.source;
  j["layout"] = info.layout;
  j["schema_version"] = std::to_string(info.schema_major) + "." + std::to_string(info.schema_minor);
  j["torch_version"] = info.torch_version;
  j["dialect"] = info.dialect;
  auto io = [](const std::vector<std::pair<std::string, const TensorSpec*>>& list) {
    nlohmann::ordered_json arr = nlohmann::ordered_json::array();
    for (const auto& [name, t] : list) {
      nlohmann::ordered_json shape = nlohmann::ordered_json::array();
      for (const SymInt& d : t->sizes) {
        if (d.is_static) {
          shape.push_back(d.value);
        } else {
          shape.push_back(d.text);
        }
      }
      arr.push_back({{"name", name}, {"dtype", scalar_type_name(t->dtype)}, {"shape", shape}});
    }
    return arr;
  };
  j["inputs"] = io(s.inputs);
  j["outputs"] = io(s.outputs);
  nlohmann::ordered_json symbols = nlohmann::ordered_json::object();
  for (const auto& [sym, r] : g.range_constraints()) {
    symbols[sym] = {r.min ? nlohmann::ordered_json(*r.min) : nlohmann::ordered_json(nullptr),
                    r.max ? nlohmann::ordered_json(*r.max) : nlohmann::ordered_json(nullptr)};
  }
  j["symbols"] = symbols;
  j["num_nodes"] = g.nodes().size();
  j["ops"] = s.ops;
  for (const char* bucket : {"parameters", "buffers", "constants"}) {
    StateTotals st = s.state[bucket];
    j[bucket] = {{"tensors", st.tensors}, {"elements", st.elements}, {"bytes", st.bytes}};
  }
  j["mutations"] = s.mutations;
  if (with_graph) j["graph"] = print_graph(g, PrintOptions{false, true});
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace ember::aot
