// ReinplaceBufferWritesPass (see reinplace_buffer_writes_pass.h).
#include "aot/planning/reinplace_buffer_writes_pass.h"

#include "aot/ir/graph_rewrite.h"
#include "aot/passes/out_variant_pass.h"
#include "aot/planning/memory_planning_pass.h"

namespace ember::aot {
namespace {

// Out variants whose kernels accept out == self (they skip the self -> out copy, or are
// elementwise).
bool writes_self_in_place(const Node& n) {
  static const char* const kOps[] = {"aten::index_put.out", "aten::index_copy.out",
                                     "aten::copy.out", "aten::add.Scalar_out", "aten::add.out"};
  if (!is_out_variant_node(n) || n.outputs.size() != 1) return false;
  const std::string q = n.op.qualified();
  for (const char* op : kOps) {
    if (q == op) return true;
  }
  return false;
}

bool reads(const Node& n, ValueId v, size_t from_input) {
  for (size_t i = from_input; i < n.inputs.size(); ++i) {
    bool hit = false;
    for_each_value(n.inputs[i].arg, [&](ValueId u) { hit = hit || u == v; });
    if (hit) return true;
  }
  return false;
}

bool same_static_shape(const TensorSpec& a, const TensorSpec& b) {
  if (a.dtype != b.dtype || a.sizes.size() != b.sizes.size()) return false;
  for (size_t d = 0; d < a.sizes.size(); ++d) {
    if (!a.sizes[d].is_static || !b.sizes[d].is_static || a.sizes[d].value != b.sizes[d].value) {
      return false;
    }
  }
  return true;
}

}  // namespace

Error ReinplaceBufferWritesPass::run(Graph& graph) const {
  const std::vector<int> producer = value_producers(graph);
  for (auto [buffer, value] : mutated_buffers(graph)) {
    if (buffer == value || buffer == kNoValue || value == kNoValue) continue;
    const int p = producer[static_cast<size_t>(value)];
    if (p < 0) continue;
    Node& write = graph.nodes()[static_cast<size_t>(p)];
    if (!writes_self_in_place(write) || write.inputs.empty() ||
        tensor_of(write.inputs[0].arg) != buffer || reads(write, buffer, 1) ||
        !same_static_shape(graph.value(buffer).tensor, graph.value(value).tensor)) {
      continue;
    }
    bool read_later = false;
    for (size_t i = static_cast<size_t>(p) + 1; i < graph.nodes().size() && !read_later; ++i) {
      read_later = reads(graph.nodes()[i], buffer, 0);
    }
    if (read_later) continue;
    write.outputs[0] = Argument::tensor(buffer);
    replace_uses(graph, value, buffer, static_cast<size_t>(p) + 1);
  }
  return Error::Ok;
}

}  // namespace ember::aot
