// BroadcastBmmToMmPass (see broadcast_bmm_to_mm_pass.h).
#include "aot/passes/broadcast_bmm_to_mm_pass.h"

#include <vector>

#include "aot/ir/graph_rewrite.h"
#include "aot/passes/decompositions.h"

namespace ember::aot {

namespace {

// Equal sizes: each dim the same literal or the same symbol (a view that changes nothing).
bool same_sizes(const TensorSpec& a, const TensorSpec& b) {
  if (a.rank() != b.rank()) return false;
  for (size_t d = 0; d < a.rank(); ++d) {
    const SymInt &x = a.sizes[d], &y = b.sizes[d];
    if (x.is_static != y.is_static) return false;
    if (x.is_static ? x.value != y.value : x.expr != y.expr) return false;
  }
  return true;
}

struct Match {
  ValueId a = kNoValue, matrix = kNoValue, out = kNoValue;
  std::vector<ValueId> chain;  // outputs of the view (if any) and the expand, consumer first
};

// Node `i` is bmm(a, X) with X = [view of the same shape of] expand(P [K, N], [B, K, N]).
bool find_match(const Graph& g, const std::vector<int>& producer, size_t i, Match* m) {
  const Node& n = g.nodes()[i];
  if (!is_aten_op(n, "bmm", "default") || n.outputs.size() != 1) return false;
  const ValueId a = optional_tensor_input(n, "self");
  ValueId x = optional_tensor_input(n, "mat2");
  const ValueId out = tensor_of(n.outputs[0]);
  if (a == kNoValue || x == kNoValue || out == kNoValue) return false;
  m->chain.clear();
  int p = producer[size_t(x)];
  if (p >= 0) {
    const Node& v = g.nodes()[size_t(p)];
    const bool view = is_aten_op(v, "view", "default") || is_aten_op(v, "_unsafe_view", "default") ||
                      is_aten_op(v, "reshape", "default");
    const ValueId src = view ? optional_tensor_input(v, "self") : kNoValue;
    if (src != kNoValue && same_sizes(g.value(src).tensor, g.value(x).tensor)) {
      m->chain.push_back(x);
      x = src;
      p = producer[size_t(x)];
    }
  }
  if (p < 0 || !is_aten_op(g.nodes()[size_t(p)], "expand", "default")) return false;
  const ValueId matrix = optional_tensor_input(g.nodes()[size_t(p)], "self");
  if (matrix == kNoValue) return false;
  const TensorSpec& ms = g.value(matrix).tensor;
  const TensorSpec& xs = g.value(x).tensor;
  if (ms.rank() != 2 || xs.rank() != 3 || !ms.is_static() || !xs.sizes[1].is_static ||
      !xs.sizes[2].is_static || xs.sizes[1].value != ms.sizes[0].value ||
      xs.sizes[2].value != ms.sizes[1].value || g.value(a).tensor.rank() != 3) {
    return false;
  }
  m->chain.push_back(x);
  m->a = a;
  m->matrix = matrix;
  m->out = out;
  return true;
}

}  // namespace

Error BroadcastBmmToMmPass::run(Graph& graph) const {
  const std::vector<int> producer = value_producers(graph);
  std::vector<std::vector<Node>> replacement(graph.nodes().size());
  std::vector<bool> replaced(graph.nodes().size(), false);
  std::vector<ValueId> chain;  // every match's view and expand outputs, consumer first
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Match m;
    if (!find_match(graph, producer, i, &m)) continue;
    Rewrite rw;
    EMBER_TRY(append_nd_by_2d(graph, m.a, m.matrix, kNoValue, m.out, graph.nodes()[i], &rw));
    replacement[i] = std::move(rw.nodes);
    replaced[i] = true;
    chain.insert(chain.end(), m.chain.begin(), m.chain.end());
  }
  if (chain.empty()) return Error::Ok;
  // The bmm's reads of its chain are gone: a view or expand nothing else reads is dropped,
  // which releases its own input in turn (consumer first).
  std::vector<int32_t> uses = use_counts(graph);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (!replaced[i]) continue;
    for (const NamedArgument& in : graph.nodes()[i].inputs) {
      for_each_value(in.arg, [&](ValueId v) { --uses[size_t(v)]; });
    }
  }
  std::vector<bool> dead(graph.nodes().size(), false);
  for (ValueId v : chain) {
    const size_t p = size_t(producer[size_t(v)]);
    if (uses[size_t(v)] != 0 || dead[p]) continue;
    dead[p] = true;
    for (const NamedArgument& in : graph.nodes()[p].inputs) {
      for_each_value(in.arg, [&](ValueId u) { --uses[size_t(u)]; });
    }
  }
  std::vector<Node> nodes;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (replaced[i]) {
      for (Node& n : replacement[i]) nodes.push_back(std::move(n));
    } else if (!dead[i]) {
      nodes.push_back(std::move(graph.nodes()[i]));
    }
  }
  graph.nodes() = std::move(nodes);
  return Error::Ok;
}

}  // namespace ember::aot
