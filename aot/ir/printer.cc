// Text printer for the AoT graph.
#include "aot/ir/printer.h"

#include <cmath>
#include <cstdio>

namespace ember::aot {
namespace {

std::string ref(const Graph& g, ValueId id) {
  if (id == kNoValue) return "None";
  if (!g.valid_id(id)) return "%<invalid " + std::to_string(id) + ">";
  return "%" + g.value(id).name;
}

std::string fmt_float(double v) {
  if (std::isnan(v)) return "nan";
  if (std::isinf(v)) return v > 0 ? "inf" : "-inf";
  char buf[32];
  std::snprintf(buf, sizeof(buf), "%g", v);
  std::string s = buf;
  if (s.find_first_of(".eni") == std::string::npos) s += ".0";
  return s;
}

const char* memory_format_name(int64_t v) {
  switch (v) {
    case 1:
      return "contiguous_format";
    case 2:
      return "channels_last";
    case 3:
      return "channels_last_3d";
    case 4:
      return "preserve_format";
    default:
      return "unknown_format";
  }
}

template <typename T, typename F>
std::string list(const std::vector<T>& items, F f) {
  std::string s = "[";
  for (size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + f(i);
  return s + "]";
}

std::string value_type(const Graph& g, ValueId id) {
  if (!g.valid_id(id)) return "?";
  const Value& v = g.value(id);
  switch (v.kind) {
    case ValueKind::Tensor:
      return v.tensor.to_string();
    case ValueKind::SymInt:
      return "SymInt" + (v.sym.text.empty() ? "" : "(" + v.sym.text + ")");
    default:
      return to_string(v.kind);
  }
}

std::string typed_outputs(const Graph& g, const Node& n) {
  std::string s;
  for (size_t i = 0; i < n.outputs.size(); ++i) {
    const Argument& o = n.outputs[i];
    if (i > 0) s += ", ";
    if (o.kind == ArgKind::TensorList) {
      s += list(o.values, [&](size_t k) { return ref(g, o.values[k]); });
    } else if (o.is_value_ref()) {
      s += ref(g, o.value()) + " : " + value_type(g, o.value());
    } else {
      s += print_argument(g, o);
    }
  }
  return s.empty() ? "()" : s;
}

}  // namespace

std::string print_argument(const Graph& g, const Argument& a) {
  switch (a.kind) {
    case ArgKind::None:
      return "None";
    case ArgKind::Tensor:
    case ArgKind::CustomObj:
      return ref(g, a.value());
    case ArgKind::TensorList:
    case ArgKind::OptionalTensorList:
      return list(a.values, [&](size_t i) { return ref(g, a.values[i]); });
    case ArgKind::Int:
      return std::to_string(a.i);
    case ArgKind::IntList:
      return list(a.ints, [&](size_t i) { return std::to_string(a.ints[i]); });
    case ArgKind::Float:
      return fmt_float(a.f);
    case ArgKind::FloatList:
      return list(a.floats, [&](size_t i) { return fmt_float(a.floats[i]); });
    case ArgKind::Bool:
      return a.b ? "True" : "False";
    case ArgKind::BoolList:
      return list(a.ints, [&](size_t i) { return std::string(a.ints[i] ? "True" : "False"); });
    case ArgKind::String:
      return "'" + a.s + "'";
    case ArgKind::StringList:
      return list(a.strings, [&](size_t i) { return "'" + a.strings[i] + "'"; });
    case ArgKind::ScalarType:
      return to_string(a.dtype);
    case ArgKind::MemoryFormat:
      return memory_format_name(a.i);
    case ArgKind::Layout:
      return a.i == 7 ? "strided" : "layout(" + std::to_string(a.i) + ")";
    case ArgKind::Device:
      return a.s + (a.i >= 0 ? ":" + std::to_string(a.i) : "");
    case ArgKind::SymInt:
      return a.values.empty() ? std::to_string(a.i) : ref(g, a.values[0]);
    case ArgKind::SymIntList:
      return list(a.ints, [&](size_t i) {
        return i < a.values.size() && a.values[i] != kNoValue ? ref(g, a.values[i])
                                                              : std::to_string(a.ints[i]);
      });
    case ArgKind::SymFloat:
      return a.values.empty() ? fmt_float(a.f) : ref(g, a.values[0]);
    case ArgKind::SymBool:
      return a.values.empty() ? (a.b ? "True" : "False") : ref(g, a.values[0]);
    case ArgKind::Operator:
      return a.s;
  }
  return "?";
}

std::string print_node(const Graph& g, const Node& n, bool show_location) {
  std::string s = typed_outputs(g, n) + " = " + n.op.qualified() + "(";
  for (size_t i = 0; i < n.inputs.size(); ++i) {
    if (i > 0) s += ", ";
    if (!n.inputs[i].name.empty()) s += n.inputs[i].name + "=";
    s += print_argument(g, n.inputs[i].arg);
  }
  s += ")";
  std::string loc = show_location ? n.source_location() : "";
  if (!loc.empty()) s += "  # " + loc;
  return s;
}

std::string print_graph(const Graph& g, const PrintOptions& options) {
  std::string s;
  const ProgramInfo& info = g.info();
  if (options.show_header) {
    s += "graph (schema " + std::to_string(info.schema_major) + "." +
         std::to_string(info.schema_minor) +
         (info.torch_version.empty() ? "" : ", torch " + info.torch_version) +
         (info.layout.empty() ? "" : ", " + info.layout) + ")\n";
    for (const auto& [name, range] : g.range_constraints()) {
      s += "  symbol " + name + " in " + range.to_string() + "\n";
    }
  }
  const GraphSignature& sig = g.signature();
  for (size_t i = 0; i < g.inputs().size(); ++i) {
    const Argument& in = g.inputs()[i];
    s += "  " + (in.is_value_ref() ? ref(g, in.value()) + " : " + value_type(g, in.value())
                                   : print_argument(g, in));
    s += " = input";
    if (i < sig.inputs.size()) {
      const InputSpec& spec = sig.inputs[i];
      s += std::string(" ") + to_string(spec.kind);
      if (!spec.target.empty()) s += " '" + spec.target + "'";
      if (spec.kind == InputKind::Buffer && !spec.persistent) s += " non-persistent";
    }
    if (in.is_value_ref() && g.valid_id(in.value()) && g.value(in.value()).tensor.constant) {
      s += " const " + std::to_string(g.value(in.value()).tensor.constant->bytes.size()) + " B";
    }
    s += "\n";
  }
  for (const Node& n : g.nodes()) s += "  " + print_node(g, n, options.show_locations) + "\n";
  for (size_t i = 0; i < g.outputs().size(); ++i) {
    s += "  output " + print_argument(g, g.outputs()[i]);
    if (i < sig.outputs.size()) {
      s += std::string(" ") + to_string(sig.outputs[i].kind);
      if (!sig.outputs[i].target.empty()) s += " '" + sig.outputs[i].target + "'";
    }
    s += "\n";
  }
  return s;
}

}  // namespace ember::aot
