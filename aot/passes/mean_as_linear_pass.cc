// MeanAsLinearPass (see mean_as_linear_pass.h).
#include "aot/passes/mean_as_linear_pass.h"

#include <cstring>
#include <map>
#include <memory>
#include <utility>
#include <vector>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

// The last-dim size K when `n` is mean.dim over only the last dim of a float32 tensor with a
// static last dim, keepdim=True and no dtype; else 0.
int64_t last_dim_mean(const Graph& g, const Node& n) {
  if (!is_aten_op(n, "mean", "dim") || n.outputs.size() != 1) return 0;
  const ValueId x = optional_tensor_input(n, "self");
  if (x == kNoValue) return 0;
  const TensorSpec& s = g.value(x).tensor;
  if (s.dtype != ScalarType::Float || s.rank() < 1 || !s.sizes.back().is_static) return 0;
  const NamedArgument* dim = n.find_input("dim");
  const NamedArgument* keep = n.find_input("keepdim");
  const NamedArgument* dtype = n.find_input("dtype");
  if (dim == nullptr || dim->arg.kind != ArgKind::IntList || dim->arg.ints.size() != 1) return 0;
  const int64_t r = int64_t(s.rank());
  if (dim->arg.ints[0] != -1 && dim->arg.ints[0] != r - 1) return 0;
  if (keep == nullptr || keep->arg.kind != ArgKind::Bool || !keep->arg.b) return 0;
  if (dtype != nullptr && dtype->arg.kind != ArgKind::None) return 0;
  return s.sizes.back().value;
}

}  // namespace

Error MeanAsLinearPass::run(Graph& graph) const {
  std::map<int64_t, ValueId> rows;  // 1/K rows made so far, by K
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const int64_t k = last_dim_mean(graph, graph.nodes()[i]);
    if (k <= 0) continue;
    auto it = rows.find(k);
    if (it == rows.end()) {
      TensorSpec spec = contiguous_spec(ScalarType::Float, static_sizes({1, k}));
      auto c = std::make_shared<ConstantData>();
      c->bytes.resize(size_t(k) * sizeof(float));
      const float v = 1.0f / float(k);
      for (int64_t j = 0; j < k; ++j) std::memcpy(c->bytes.data() + j * sizeof(float), &v, sizeof(v));
      c->source = "mean_as_linear: 1/" + std::to_string(k);
      spec.constant = std::move(c);
      EMBER_ASSIGN_OR_RETURN(ValueId w, add_tensor_value(graph, "mean_row_" + std::to_string(k),
                                                         std::move(spec)));
      lift_as_parameter(graph, w);
      it = rows.emplace(k, w).first;
    }
    Node& n = graph.nodes()[i];
    std::vector<NamedArgument> inputs;
    inputs.push_back({"input", Argument::tensor(optional_tensor_input(n, "self"))});
    inputs.push_back({"weight", Argument::tensor(it->second)});
    inputs.push_back({"bias", Argument::none()});
    n = make_op_node("aten", "linear", "default", std::move(inputs), n.outputs, n);
  }
  return Error::Ok;
}

}  // namespace ember::aot
