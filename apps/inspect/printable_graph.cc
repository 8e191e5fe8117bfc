// make_printable (see printable_graph.h).
#include "apps/inspect/printable_graph.h"

#include <map>
#include <string>
#include <utility>

#include "apps/common/printable.h"

namespace ember::aot {
namespace {

void escape(std::string* s) { *s = apps::printable(*s); }

void escape_sym(SymInt* d) {
  escape(&d->text);
  escape(&d->expr);
}

void escape_tensor(TensorSpec* t) {
  for (SymInt& d : t->sizes) escape_sym(&d);
  for (SymInt& d : t->strides) escape_sym(&d);
}

void escape_argument(Argument* a) {
  escape(&a->s);
  for (std::string& s : a->strings) escape(&s);
}

// `File "<escaped file>", line <n>` for the node's user frame ("" when it has none).
std::string printable_stack_trace(const Node& n) {
  const std::string loc = n.source_location();
  if (loc.empty()) return "";
  size_t colon = loc.rfind(':');
  const bool has_line = colon != std::string::npos && colon + 1 < loc.size() &&
                        loc.find_first_not_of("0123456789", colon + 1) == std::string::npos;
  if (!has_line) colon = loc.size();
  std::string out = "File \"" + apps::printable(loc.substr(0, colon)) + "\"";
  if (has_line) out += ", line " + loc.substr(colon + 1);
  return out;
}

}  // namespace

void make_printable(Graph* graph) {
  ProgramInfo& info = graph->info();
  escape(&info.source);
  escape(&info.layout);
  escape(&info.torch_version);
  escape(&info.dialect);
  for (size_t i = 0; i < graph->num_values(); ++i) {
    Value& v = graph->value(static_cast<ValueId>(i));
    escape(&v.name);
    escape_tensor(&v.tensor);
  }
  for (Node& n : graph->nodes()) {
    n.stack_trace = printable_stack_trace(n);
    escape(&n.op.ns);
    escape(&n.op.name);
    escape(&n.op.overload);
    escape(&n.target);
    escape(&n.name);
    for (auto& [key, value] : n.metadata) escape(&value);
    for (NamedArgument& in : n.inputs) {
      escape(&in.name);
      escape_argument(&in.arg);
    }
    for (Argument& out : n.outputs) escape_argument(&out);
  }
  for (Argument& a : graph->inputs()) escape_argument(&a);
  for (Argument& a : graph->outputs()) escape_argument(&a);
  for (InputSpec& in : graph->signature().inputs) {
    escape(&in.name);
    escape(&in.target);
  }
  for (OutputSpec& out : graph->signature().outputs) {
    escape(&out.name);
    escape(&out.target);
  }
  std::map<std::string, SymRange> ranges;
  for (auto& [sym, range] : graph->range_constraints()) ranges.emplace(apps::printable(sym), range);
  graph->range_constraints() = std::move(ranges);
}

}  // namespace ember::aot
