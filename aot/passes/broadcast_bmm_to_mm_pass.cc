// BroadcastBmmToMmPass (see broadcast_bmm_to_mm_pass.h).
#include "aot/passes/broadcast_bmm_to_mm_pass.h"

#include <map>

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
  size_t bmm = 0;
  ValueId a = kNoValue, matrix = kNoValue, out = kNoValue;
  std::vector<size_t> chain;  // the view (if any) and the expand, consumer first
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
      m->chain.push_back(size_t(p));
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
  m->chain.push_back(size_t(p));
  m->bmm = i;
  m->a = a;
  m->matrix = matrix;
  m->out = out;
  return true;
}

}  // namespace

Error BroadcastBmmToMmPass::run(Graph& graph) const {
  const std::vector<int> producer = value_producers(graph);
  std::map<size_t, std::vector<Node>> replacement;
  std::vector<Match> matches;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Match m;
    if (!find_match(graph, producer, i, &m)) continue;
    Rewrite rw;
    EMBER_TRY(append_nd_by_2d(graph, m.a, m.matrix, kNoValue, m.out, graph.nodes()[i], &rw));
    replacement[i] = std::move(rw.nodes);
    matches.push_back(m);
  }
  if (matches.empty()) return Error::Ok;
  // The view and expand outputs of each match, consumer first: removed below once unread.
  std::vector<ValueId> chain_values;
  for (const Match& m : matches) {
    for (size_t j : m.chain) chain_values.push_back(tensor_of(graph.nodes()[j].outputs[0]));
  }
  std::vector<Node> nodes;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    auto r = replacement.find(i);
    if (r != replacement.end()) {
      for (Node& n : r->second) nodes.push_back(std::move(n));
    } else {
      nodes.push_back(std::move(graph.nodes()[i]));
    }
  }
  graph.nodes() = std::move(nodes);
  for (ValueId v : chain_values) {
    if (use_counts(graph)[size_t(v)] != 0) continue;
    std::vector<bool> drop(graph.nodes().size(), false);
    for (size_t k = 0; k < graph.nodes().size(); ++k) {
      const Node& n = graph.nodes()[k];
      drop[k] = n.outputs.size() == 1 && tensor_of(n.outputs[0]) == v;
    }
    remove_nodes(graph, drop);
  }
  return Error::Ok;
}

}  // namespace ember::aot
