// CustomOpCheckPass (see custom_op_check_pass.h).
#include "aot/passes/custom_op_check_pass.h"

#include "aot/ir/op_schema.h"

namespace ember::aot {

Error CustomOpCheckPass::run(Graph& graph) const {
  if (graph.custom_op_schemas() == nullptr) return Error::Ok;
  std::string report;
  size_t count = 0;
  for (const Node& n : graph.nodes()) {
    if (n.kind != NodeKind::Op) continue;
    const OpSchema* s = graph.custom_op_schemas()->find(n.op);
    if (s == nullptr) continue;
    std::string why;
    auto bound = bind_arguments(*s, n);
    if (!bound.ok()) {
      why = last_error_message();
    } else if (n.outputs.size() != s->returns.size()) {
      why = n.describe() + ": has " + std::to_string(n.outputs.size()) + " outputs, " +
            s->to_string() + " (declared at " + s->declared_at + ") returns " +
            std::to_string(s->returns.size());
    }
    if (why.empty()) continue;
    ++count;
    report += "\n  " + why;
  }
  if (count == 0) return Error::Ok;
  return invalid_program(std::to_string(count) +
                         " custom operator call(s) do not match their --custom_ops declaration:" +
                         report);
}

}  // namespace ember::aot
