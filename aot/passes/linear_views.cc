// absorb_linear_views (see linear_views.h).
#include "aot/passes/linear_views.h"

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool same_dim(const SymInt& a, const SymInt& b) {
  return a.is_static == b.is_static && (a.is_static ? a.value == b.value : a.expr == b.expr);
}

bool is_view(const Node& n) {
  return (is_aten_op(n, "view", "default") || is_aten_op(n, "view_copy", "default")) &&
         n.outputs.size() == 1;
}

}  // namespace

void absorb_linear_views(Graph& graph, const std::vector<int>& producer, const ValueUses& uses,
                         size_t i, std::vector<bool>* drop) {
  Node& lin = graph.nodes()[i];
  const ValueId x2 = optional_tensor_input(lin, "input");
  const ValueId y2 = tensor_of(lin.outputs[0]);
  if (x2 == kNoValue || y2 == kNoValue || producer[size_t(x2)] < 0) return;
  const Node& in_view = graph.nodes()[size_t(producer[size_t(x2)])];
  if (!is_view(in_view) || uses.node_users[size_t(x2)].size() != 1 ||
      uses.is_graph_output[size_t(x2)] || uses.node_users[size_t(y2)].size() != 1 ||
      uses.is_graph_output[size_t(y2)]) {
    return;
  }
  const size_t u = size_t(uses.node_users[size_t(y2)][0]);
  const Node& out_view = graph.nodes()[u];
  const ValueId x = optional_tensor_input(in_view, "self");
  const ValueId y = tensor_of(out_view.outputs[0]);
  if (!is_view(out_view) || x == kNoValue || y == kNoValue) return;
  const TensorSpec& xs = graph.value(x).tensor;
  const TensorSpec& x2s = graph.value(x2).tensor;
  const TensorSpec& y2s = graph.value(y2).tensor;
  const TensorSpec& ys = graph.value(y).tensor;
  if (xs.rank() < 2 || x2s.rank() != 2 || y2s.rank() != 2 || ys.rank() != xs.rank() ||
      !same_dim(xs.sizes.back(), x2s.sizes[1]) || !same_dim(ys.sizes.back(), y2s.sizes[1]) ||
      xs.dtype != x2s.dtype || ys.dtype != y2s.dtype) {
    return;
  }
  for (size_t d = 0; d + 1 < xs.rank(); ++d) {
    if (!same_dim(xs.sizes[d], ys.sizes[d])) return;
  }
  for (NamedArgument& a : lin.inputs) {
    if (a.name == "input") a.arg = Argument::tensor(x);
  }
  lin.outputs = out_view.outputs;
  (*drop)[size_t(producer[size_t(x2)])] = true;
  (*drop)[u] = true;
}


}  // namespace ember::aot
