#include "backends/xnnpack/runtime/stage_work.h"

namespace ember::backends::xnnpack {

uint64_t node_work(const GraphModel& m, uint32_t node, const Shape* shapes) {
  const NodeDesc& d = m.nodes[node];
  uint64_t out = 0;
  for (uint32_t k = 0; k < d.num_outputs; ++k) {
    if (d.outputs[k] != kInvalidId) out += shapes[d.outputs[k]].numel();
  }
  if (d.num_inputs < 2 || d.num_outputs == 0 || d.inputs[1] == kInvalidId ||
      d.outputs[0] == kInvalidId) {
    return out;
  }
  const ValueInfo& filter = m.values[d.inputs[1]];
  const Shape& fs = shapes[d.inputs[1]];
  const Shape& os = shapes[d.outputs[0]];
  if (filter.data == nullptr || fs.rank < 2 || os.rank == 0 || os.dims[os.rank - 1] == 0) return out;
  const uint64_t per_output = fs.numel() / os.dims[os.rank - 1];
  return per_output == 0 ? out : out * per_output;
}

uint64_t work_per_node(const GraphModel& m, const Stage& st, const Shape* shapes) {
  if (st.end_node <= st.first_node) return 0;
  uint64_t total = 0;
  for (uint32_t i = st.first_node; i < st.end_node; ++i) total += node_work(m, i, shapes);
  return total / (st.end_node - st.first_node);
}

}  // namespace ember::backends::xnnpack
