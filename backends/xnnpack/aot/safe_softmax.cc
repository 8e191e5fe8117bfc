// find_safe_softmax (see safe_softmax.h).
#include "backends/xnnpack/aot/safe_softmax.h"

#include <cmath>

#include "aot/ir/graph_util.h"
#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

namespace {

struct Index {
  std::vector<size_t> producer;  // per value; SIZE_MAX for inputs and constants
  aot::ValueUses uses;
};

bool is_op(const aot::Node& n, const char* name, const char* overload) {
  return n.kind == aot::NodeKind::Op && n.op.ns == "aten" && n.op.name == name && n.op.overload == overload;
}

// The node producing `v` if it is `name.overload` and v has exactly one use.
const aot::Node* single_use(const aot::Graph& g, const Index& ix, aot::ValueId v, const char* name,
                            const char* overload, size_t* index) {
  if (v == aot::kNoValue || ix.producer[size_t(v)] == SIZE_MAX) return nullptr;
  if (ix.uses.node_users[size_t(v)].size() != 1 || ix.uses.is_graph_output[size_t(v)]) return nullptr;
  const aot::Node& n = g.nodes()[ix.producer[size_t(v)]];
  if (!is_op(n, name, overload)) return nullptr;
  *index = ix.producer[size_t(v)];
  return &n;
}

int64_t norm(int64_t d, size_t rank) { return d < 0 ? d + int64_t(rank) : d; }

bool match(const aot::Graph& g, const Index& ix, size_t w, SafeSoftmax* out) {
  const aot::Node& where = g.nodes()[w];
  if (!is_op(where, "where", "self")) return false;
  const aot::ValueId s = input_tensor(where, "other");
  if (s == aot::kNoValue || ix.producer[size_t(s)] == SIZE_MAX) return false;
  const size_t si = ix.producer[size_t(s)];
  const aot::Node& sm = g.nodes()[si];
  if (!is_op(sm, "_softmax", "default") || input_bool(sm, "half_to_float", false)) return false;
  const aot::ValueId x = input_tensor(sm, "self");
  const size_t rank = g.value(x).tensor.rank();
  const int64_t dim = norm(int64_t(input_double(sm, "dim", -1)), rank);
  size_t zi = 0, nai = 0, ai = 0, nei = 0, ei = 0;
  const aot::Node* z = single_use(g, ix, input_tensor(where, "self"), "full_like", "default", &zi);
  if (z == nullptr || input_tensor(*z, "self") != s || input_double(*z, "fill_value", 1) != 0.0) return false;
  const aot::Node* na = single_use(g, ix, input_tensor(where, "condition"), "logical_not", "default", &nai);
  if (na == nullptr) return false;
  const aot::Node* a = single_use(g, ix, input_tensor(*na, "self"), "any", "dim", &ai);
  if (a == nullptr || !input_bool(*a, "keepdim", false) || norm(int64_t(input_double(*a, "dim", -99)), rank) != dim) {
    return false;
  }
  const aot::Node* ne = single_use(g, ix, input_tensor(*a, "self"), "logical_not", "default", &nei);
  if (ne == nullptr) return false;
  const aot::Node* e = single_use(g, ix, input_tensor(*ne, "self"), "eq", "Scalar", &ei);
  const double other = e == nullptr ? 0 : input_double(*e, "other", 0);
  if (e == nullptr || input_tensor(*e, "self") != x || !(std::isinf(other) && other < 0)) return false;
  // %s feeds full_like and where (and may have further uses, which keep it computed).
  *out = SafeSoftmax{w, si, {ei, nei, ai, nai, zi}, x, s, output_tensor(where), dim};
  return true;
}

}  // namespace

std::vector<SafeSoftmax> find_safe_softmax(const aot::Graph& g) {
  Index ix{std::vector<size_t>(g.num_values(), SIZE_MAX), aot::compute_uses(g)};
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    for (const aot::Argument& o : g.nodes()[i].outputs) {
      if (o.kind == aot::ArgKind::Tensor) ix.producer[size_t(o.values[0])] = i;
    }
  }
  std::vector<SafeSoftmax> found;
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    SafeSoftmax m;
    if (match(g, ix, i, &m)) found.push_back(m);
  }
  return found;
}

}  // namespace ember::backends::xnnpack
