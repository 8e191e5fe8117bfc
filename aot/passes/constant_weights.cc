// Helpers shared by the linear-weight passes: see constant_weights.h.
#include "aot/passes/constant_weights.h"

#include <utility>

#include "aot/ir/graph_rewrite.h"
#include "aot/ir/graph_util.h"

namespace ember::aot {

using runtime::Result;
using runtime::ScalarType;

ValueId transposed_constant(const Graph& g, const std::vector<int>& producer, ValueId v) {
  const int p = producer[size_t(v)];
  if (p < 0) return kNoValue;
  const Node& n = g.nodes()[size_t(p)];
  const bool permute = is_aten_op(n, "permute", "default") || is_aten_op(n, "permute_copy", "default");
  const bool t = is_aten_op(n, "t", "default") || is_aten_op(n, "t_copy", "default");
  if (!permute && !t) return kNoValue;
  if (permute) {
    const NamedArgument* dims = n.find_input("dims");
    if (dims == nullptr || dims->arg.kind != ArgKind::IntList) return kNoValue;
    const std::vector<int64_t>& d = dims->arg.ints;
    if (d.size() != 2 || !((d[0] == 1 || d[0] == -1) && (d[1] == 0 || d[1] == -2))) return kNoValue;
  }
  const ValueId w = optional_tensor_input(n, "self");
  if (w == kNoValue) return kNoValue;
  const TensorSpec& s = g.value(w).tensor;
  if (s.constant == nullptr || !s.is_static() || s.rank() != 2) return kNoValue;
  return w;
}


bool is_one(const Node& n, const char* name) {
  const NamedArgument* a = n.find_input(name);
  if (a == nullptr || a->arg.kind == ArgKind::None) return true;  // schema default 1
  if (a->arg.kind == ArgKind::Int) return a->arg.i == 1;
  if (a->arg.kind == ArgKind::Float) return a->arg.f == 1.0;
  return false;
}

Result<ValueId> add_constant_parameter(Graph& g, const std::string& base, ScalarType dtype,
                              const std::vector<int64_t>& sizes,
                              std::shared_ptr<ConstantData> data) {
  TensorSpec spec = contiguous_spec(dtype, static_sizes(sizes));
  spec.constant = std::move(data);
  EMBER_ASSIGN_OR_RETURN(ValueId v, add_tensor_value(g, base, std::move(spec)));
  lift_as_parameter(g, v);
  return v;
}

}  // namespace ember::aot
