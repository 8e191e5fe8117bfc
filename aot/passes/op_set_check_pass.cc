// OpSetCheckPass (see op_set_check_pass.h).
#include "aot/passes/op_set_check_pass.h"

#include "aot/ir/control_flow.h"
#include "aot/ir/graph_rewrite.h"
#include "aot/ir/op_schema.h"
#include "aot/passes/decompositions.h"
#include "aot/quantize/qdq.h"

namespace ember::aot {

bool is_edge_op(const Node& node) {
  static const Graph* no_custom_ops = new Graph();  // never destroyed
  return is_edge_op(node, *no_custom_ops);
}

bool is_edge_op(const Node& node, const Graph& graph) {
  if (node.kind == NodeKind::Symbolic) return true;
  if (control_op(node) != ControlOp::None) return true;  // cond markers (aot/ir/control_flow.h)
  if (is_scalar_read_op(node)) return true;
  // Training-IR ops (linear, matmul, ...) may have out variants in ATen but are not core:
  // whatever has a decomposition must be decomposed.
  if (training_ir_decompositions().count(node.op.qualified()) != 0) return false;
  const OpSchema* s = find_op_schema(graph, node.op);  // custom operators too (--custom_ops)
  return s != nullptr && !s->out_variant.empty() && !s->is_inplace;
}

namespace {

std::string suggestion(const Node& node) {
  if (training_ir_decompositions().count(node.op.qualified()) != 0) {
    return "a decomposition exists: run the to_edge stage (DecomposeTrainingOpsPass) first";
  }
  const OpSchema* s = builtin_op_schemas().find(node.op);
  if (is_quantized_decomposed(node) && !is_supported_qdq_op(node.op)) {
    return "quantized op not supported; Ember lowers " + supported_qdq_ops();
  }
  if (s == nullptr && node.op.ns != "aten") {
    return "custom operator not declared: declare its out variant (" + node.op.ns +
           "::" + node.op.name + ".out(..., *, Tensor(a!) out) -> Tensor(a!)) in a YAML file and "
           "pass it with lower --custom_ops FILE.yaml (docs/custom_ops.md)";
  }
  if (s == nullptr) {
    return "unknown operator: add its schema to aot/ir/op_schema_table.cc and a decomposition "
           "(aot/passes/decomp_*.cc) or an out-variant kernel";
  }
  if (s->is_inplace) return "in-place op: run FunctionalizePass first";
  return "not in core ATen and no decomposition: save the program after "
         "ep.run_decompositions(), or add a rule in aot/passes/decomp_*.cc";
}

}  // namespace

Error OpSetCheckPass::run(Graph& graph) const {
  std::string report;
  size_t count = 0;
  for (const Node& n : graph.nodes()) {
    if (is_edge_op(n, graph)) continue;
    ++count;
    report += "\n  " + n.describe() + ": " + suggestion(n);
  }
  if (count == 0) return Error::Ok;
  return fail(Error::OperatorMissing,
                std::to_string(count) + " node(s) outside the core ATen op set:" + report);
}

}  // namespace ember::aot
