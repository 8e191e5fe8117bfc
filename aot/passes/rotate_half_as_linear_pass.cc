// RotateHalfAsLinearPass (see rotate_half_as_linear_pass.h).
#include "aot/passes/rotate_half_as_linear_pass.h"

#include <cstring>
#include <map>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

bool int_arg(const Node& n, const char* name, int64_t fallback, int64_t* out) {
  const NamedArgument* a = n.find_input(name);
  if (a == nullptr) {
    *out = fallback;
    return true;
  }
  if (a->arg.is_value_ref()) return false;
  if (a->arg.kind != ArgKind::Int && a->arg.kind != ArgKind::SymInt) return false;
  *out = a->arg.i;
  return true;
}

// `v` = slice(x, last dim, start, end) with step 1: x, start and end (clamped to the dim).
bool last_dim_slice(const Graph& g, const std::vector<int>& producer, ValueId v, ValueId* x,
                    int64_t* start, int64_t* end) {
  int p = producer[size_t(v)];
  if (p < 0) return false;
  const Node& n = g.nodes()[size_t(p)];
  if (!is_aten_op(n, "slice", "Tensor")) return false;
  *x = optional_tensor_input(n, "self");
  if (*x == kNoValue) return false;
  const TensorSpec& s = g.value(*x).tensor;
  if (s.rank() == 0 || !s.sizes.back().is_static) return false;
  const int64_t rank = int64_t(s.rank()), d = s.sizes.back().value;
  int64_t dim = 0, step = 1;
  if (!int_arg(n, "dim", 0, &dim) || !int_arg(n, "start", 0, start) ||
      !int_arg(n, "end", INT64_MAX, end) || !int_arg(n, "step", 1, &step) || step != 1) {
    return false;
  }
  if (dim < 0) dim += rank;
  if (dim != rank - 1 || *start < 0 || *end < 0) return false;
  if (*end > d) *end = d;
  return true;
}

}  // namespace

Error RotateHalfAsLinearPass::run(Graph& graph) const {
  std::map<int64_t, ValueId> rotations;  // one constant per head dim
  bool changed = true;
  while (changed) {
    changed = false;
    const std::vector<int> producer = value_producers(graph);
    const ValueUses uses = compute_uses(graph);
    auto single_use = [&](ValueId v) {
      return uses.node_users[size_t(v)].size() == 1 && !uses.is_graph_output[size_t(v)];
    };
    for (size_t i = 0; i < graph.nodes().size() && !changed; ++i) {
      Node& cat = graph.nodes()[i];
      if (!is_aten_op(cat, "cat", "default") || cat.outputs.size() != 1) continue;
      const NamedArgument* ts = cat.find_input("tensors");
      if (ts == nullptr || ts->arg.kind != ArgKind::TensorList || ts->arg.values.size() != 2) {
        continue;
      }
      const ValueId neg = ts->arg.values[0], lo = ts->arg.values[1];
      const int pn = producer[size_t(neg)];
      if (pn < 0 || !is_aten_op(graph.nodes()[size_t(pn)], "neg", "default")) continue;
      const ValueId hi = optional_tensor_input(graph.nodes()[size_t(pn)], "self");
      ValueId x_lo = kNoValue, x_hi = kNoValue;
      int64_t lo_start = 0, lo_end = 0, hi_start = 0, hi_end = 0;
      if (hi == kNoValue || !last_dim_slice(graph, producer, lo, &x_lo, &lo_start, &lo_end) ||
          !last_dim_slice(graph, producer, hi, &x_hi, &hi_start, &hi_end) || x_lo != x_hi) {
        continue;
      }
      const TensorSpec& xs = graph.value(x_lo).tensor;
      const int64_t d = xs.sizes.back().value, h = d / 2;
      int64_t cat_dim = 0;
      if (!int_arg(cat, "dim", 0, &cat_dim)) continue;
      if (cat_dim < 0) cat_dim += int64_t(xs.rank());
      if (xs.dtype != ScalarType::Float || d % 2 != 0 || d == 0 || lo_start != 0 ||
          lo_end != h || hi_start != h || hi_end != d || cat_dim != int64_t(xs.rank()) - 1 ||
          !single_use(lo) || !single_use(hi) || !single_use(neg)) {
        continue;
      }
      auto it = rotations.find(d);
      if (it == rotations.end()) {
        auto data = std::make_shared<ConstantData>();
        data->source = "rotate_half as a product (RotateHalfAsLinearPass)";
        std::vector<float> w(size_t(d * d), 0.f);
        for (int64_t j = 0; j < d; ++j) {
          w[size_t(j * d + (j < h ? j + h : j - h))] = j < h ? -1.f : 1.f;
        }
        data->bytes.resize(w.size() * 4);
        std::memcpy(data->bytes.data(), w.data(), data->bytes.size());
        TensorSpec spec = contiguous_spec(ScalarType::Float, static_sizes({d, d}));
        spec.constant = std::move(data);
        EMBER_ASSIGN_OR_RETURN(ValueId r, add_tensor_value(graph, "rotate_half_" +
                                                                      std::to_string(d), spec));
        lift_as_parameter(graph, r);
        it = rotations.emplace(d, r).first;
      }
      Node lin = make_op_node("aten", "linear", "default",
                              {{"input", Argument::tensor(x_lo)},
                               {"weight", Argument::tensor(it->second)}},
                              cat.outputs, cat);
      lin.name = cat.name;
      cat = std::move(lin);
      std::vector<bool> drop(graph.nodes().size(), false);
      drop[size_t(pn)] = true;
      drop[size_t(producer[size_t(lo)])] = true;
      drop[size_t(producer[size_t(hi)])] = true;
      remove_nodes(graph, drop);
      changed = true;
    }
  }
  return Error::Ok;
}

}  // namespace ember::aot
