// graph_to_dot (see graph_dot.h).
#include "apps/inspect/graph_dot.h"

#include <map>

namespace ember::aot {
namespace {

std::string quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::string graph_to_dot(const Graph& graph) {
  std::string out = "digraph G {\n  rankdir=TB;\n  node [fontname=\"monospace\", fontsize=10];\n";
  std::map<ValueId, std::string> producer;
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    ValueId v = graph.inputs()[i].value();
    if (v == kNoValue) continue;
    const Value& val = graph.value(v);
    std::string id = "in" + std::to_string(i);
    producer[v] = id;
    bool constant = val.tensor.constant != nullptr;
    out += "  " + id + " [shape=ellipse" + (constant ? ", style=filled, fillcolor=lightgrey" : "") +
           ", label=" + quote(val.name + "\n" + val.tensor.to_string()) + "];\n";
  }
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    std::string id = "n" + std::to_string(i);
    std::string label = n.op.qualified();
    for (const Argument& o : n.outputs) {
      for (ValueId v : o.values) {
        if (v == kNoValue) continue;
        producer[v] = id;
        const Value& val = graph.value(v);
        label += "\n" + val.name + (val.kind == ValueKind::Tensor ? " : " + val.tensor.to_string() : "");
      }
    }
    out += "  " + id + " [shape=box, label=" + quote(label) + "];\n";
    for (const NamedArgument& in : n.inputs) {
      for (ValueId v : in.arg.values) {
        auto it = producer.find(v);
        if (it != producer.end()) out += "  " + it->second + " -> " + id + ";\n";
      }
    }
  }
  out += "  out [shape=doublecircle, label=\"output\"];\n";
  for (const Argument& o : graph.outputs()) {
    for (ValueId v : o.values) {
      auto it = producer.find(v);
      if (it != producer.end()) out += "  " + it->second + " -> out;\n";
    }
  }
  return out + "}\n";
}

}  // namespace ember::aot
