// OpSetCheckPass (see op_set_check_pass.h).
#include "aot/passes/op_set_check_pass.h"

#include "aot/ir/control_flow.h"
#include "aot/ir/graph_rewrite.h"
#include "aot/ir/op_schema.h"
#include "aot/passes/decompositions.h"
#include "aot/quantize/qdq.h"

namespace ember::aot {

namespace {

// Ops of the older quantization flows (torch.ao eager/FX convert): the quantized:: kernels and
// ATen's own quantize/dequantize on quantized tensors. Ember lowers only PT2E's q/dq ops.
bool is_legacy_quantized(const Node& node) {
  if (node.kind != NodeKind::Op) return false;
  if (node.op.ns == "quantized") return true;
  const std::string& n = node.op.name;
  return node.op.ns == "aten" && (n.rfind("quantize_per_", 0) == 0 || n == "dequantize" ||
                                  n.rfind("q_", 0) == 0 || n == "int_repr");
}

}  // namespace

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
  // ATen's quantize/dequantize of the eager/FX flows have schemas and out variants, but they
  // work on quantized tensors, which Ember does not have.
  if (is_legacy_quantized(node)) return false;
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
  if (is_legacy_quantized(node)) {
    return "quantized op from eager or FX quantization: Ember lowers PT2E quantization "
           "(quantized_decomposed quantize/dequantize ops); quantize with "
           "prepare_pt2e/convert_pt2e "
           "before torch.export (docs/quantization.md)";
  }
  if (s == nullptr && node.op.ns != "aten") {
    return "custom operator not declared: declare its out variant (" + node.op.ns +
           "::" + node.op.name +
           ".out(..., *, Tensor(a!) out) -> Tensor(a!)) in a YAML file and "
           "pass it with lower --custom_ops FILE.yaml (docs/custom_ops.md)";
  }
  if (s == nullptr) {
    return "operator Ember does not know (no schema, no decomposition): save the program after "
           "ep.run_decompositions() so it is written in core ATen, or export the model without it";
  }
  if (s->is_inplace) return "in-place op: run FunctionalizePass first";
  return "not in core ATen and Ember has no decomposition for it: save the program after "
         "ep.run_decompositions()";
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
