// Node helpers: target parsing, source locations, descriptions.
#include "aot/ir/node.h"

namespace ember::aot {
namespace {

// Python scalar operations torch.export may record for symbolic-shape arithmetic.
constexpr const char* kSymbolicTargets[] = {
    "_operator.add",   "_operator.sub",  "_operator.mul", "_operator.floordiv", "_operator.truediv",
    "_operator.mod",   "_operator.neg",  "_operator.pow", "_operator.eq",       "_operator.ne",
    "_operator.lt",    "_operator.le",   "_operator.gt",  "_operator.ge",       "_operator.and_",
    "_operator.or_",   "_operator.not_", "torch.sym_max", "torch.sym_min",      "torch.sym_not",
    "torch.sym_float", "torch.sym_int",  "torch.sym_ite", "torch.sym_sqrt",     "torch._sym_sqrt",
    "math.trunc",      "math.ceil",      "math.floor",    "math.sqrt",
};

bool is_torch_frame(const std::string& file) {
  return file.find("/torch/") != std::string::npos || file.find("<eval_with_key>") == 0;
}

}  // namespace

std::string OpName::qualified() const {
  if (ns.empty()) return name;
  return ns + "::" + name + "." + overload;
}

const NamedArgument* Node::find_input(const std::string& arg_name) const {
  for (const NamedArgument& in : inputs) {
    if (in.name == arg_name) return &in;
  }
  return nullptr;
}

std::string Node::source_location() const {
  // Frames look like: File "path/model.py", line 97, in forward
  std::string first;
  size_t pos = 0;
  while ((pos = stack_trace.find("File \"", pos)) != std::string::npos) {
    pos += 6;
    size_t end = stack_trace.find('"', pos);
    if (end == std::string::npos) break;
    std::string file = stack_trace.substr(pos, end - pos);
    size_t line_pos = stack_trace.find(", line ", end);
    std::string line;
    if (line_pos != std::string::npos && line_pos == end + 1) {
      size_t p = line_pos + 7;
      while (p < stack_trace.size() && stack_trace[p] >= '0' && stack_trace[p] <= '9') {
        line += stack_trace[p++];
      }
    }
    size_t slash = file.rfind('/');
    std::string loc = (slash == std::string::npos ? file : file.substr(slash + 1)) +
                      (line.empty() ? "" : ":" + line);
    if (!is_torch_frame(file)) return loc;
    if (first.empty()) first = loc;
    pos = end;
  }
  return first;
}

std::string Node::describe() const {
  std::string loc = source_location();
  return "node '" + name + "' (" + op.qualified() + (loc.empty() ? "" : ", " + loc) + ")";
}

Result<std::pair<NodeKind, OpName>> parse_node_target(const std::string& target) {
  for (const char* t : kSymbolicTargets) {
    if (target == t) return std::make_pair(NodeKind::Symbolic, OpName{"", target, ""});
  }
  const std::string prefix = "torch.ops.";
  if (target.compare(0, 23, "torch.ops.higher_order.") == 0) {
    return not_supported("higher-order operator '" + target +
                         "' (control flow / wrapped subgraphs) is not supported");
  }
  if (!target.empty() && target[0] == '#') {
    return not_supported("extension operator '" + target + "' is not supported");
  }
  if (target.compare(0, prefix.size(), prefix) != 0) {
    return invalid_program("unknown node target '" + target +
                           "' (expected torch.ops.<ns>.<op>.<overload> or a symbolic "
                           "_operator/torch.sym_*/math op)");
  }
  std::string rest = target.substr(prefix.size());
  size_t a = rest.find('.');
  size_t b = rest.rfind('.');
  if (a == std::string::npos || a == b || a == 0 || b + 1 == rest.size()) {
    return invalid_program("operator target '" + target +
                           "' is not torch.ops.<ns>.<op>.<overload>");
  }
  OpName op{rest.substr(0, a), rest.substr(a + 1, b - a - 1), rest.substr(b + 1)};
  return std::make_pair(NodeKind::Op, op);
}

}  // namespace ember::aot
