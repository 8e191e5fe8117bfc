// MemoryPlanningPass (see memory_planning_pass.h).
#include "aot/planning/memory_planning_pass.h"

#include <algorithm>
#include <map>
#include <string>

#include "aot/ir/control_flow.h"
#include "aot/ir/graph_rewrite.h"
#include "aot/planning/planner_registry.h"

namespace ember::aot {

int64_t upper_bound_nbytes(const TensorSpec& spec) {
  int64_t n = static_cast<int64_t>(element_size(spec.dtype));
  if (n == 0) return -1;
  for (const SymInt& s : spec.sizes) {
    int64_t d = s.is_static ? s.value : (s.range.max ? *s.range.max : -1);
    if (d < 0 || __builtin_mul_overflow(n, d, &n)) return -1;
  }
  return n;
}

std::vector<std::pair<ValueId, ValueId>> mutated_buffers(const Graph& graph) {
  std::vector<std::pair<ValueId, ValueId>> out;
  const GraphSignature& sig = graph.signature();
  for (size_t o = 0; o < sig.outputs.size() && o < graph.outputs().size(); ++o) {
    if (sig.outputs[o].kind != OutputKind::BufferMutation) continue;
    for (size_t i = 0; i < sig.inputs.size() && i < graph.inputs().size(); ++i) {
      if (sig.inputs[i].kind == InputKind::Buffer && sig.inputs[i].target == sig.outputs[o].target) {
        out.push_back({tensor_of(graph.inputs()[i]), tensor_of(graph.outputs()[o])});
      }
    }
  }
  return out;
}

namespace {

struct Lifetimes {
  std::vector<int32_t> first, last;
  std::vector<bool> planned;
};

Lifetimes compute_lifetimes(const Graph& graph) {
  size_t nv = graph.num_values();
  Lifetimes lt{std::vector<int32_t>(nv, -1), std::vector<int32_t>(nv, -1), std::vector<bool>(nv, false)};
  auto plannable = [&](ValueId v) {
    const Value& val = graph.value(v);
    return val.kind == ValueKind::Tensor && val.tensor.constant == nullptr;
  };
  auto touch = [&](ValueId v, int32_t t) {
    size_t k = static_cast<size_t>(v);
    if (!plannable(v)) return;
    lt.planned[k] = true;
    if (lt.first[k] < 0 || t < lt.first[k]) lt.first[k] = t;
    lt.last[k] = std::max(lt.last[k], t);
  };
  const GraphSignature& sig = graph.signature();
  for (size_t i = 0; i < graph.inputs().size(); ++i) {
    bool user = i >= sig.inputs.size() || sig.inputs[i].kind == InputKind::UserInput;
    if (user) for_each_value(graph.inputs()[i], [&](ValueId v) { touch(v, 0); });
  }
  int32_t n = static_cast<int32_t>(graph.nodes().size());
  for (int32_t i = 0; i < n; ++i) {
    const Node& node = graph.nodes()[static_cast<size_t>(i)];
    for (const NamedArgument& in : node.inputs) for_each_value(in.arg, [&](ValueId v) { touch(v, i); });
    for (const Argument& out : node.outputs) for_each_value(out, [&](ValueId v) { touch(v, i); });
  }
  auto mutated = mutated_buffers(graph);
  int32_t end = std::max<int32_t>(n - 1, 0) + static_cast<int32_t>(mutated.size());
  for (const Argument& out : graph.outputs()) for_each_value(out, [&](ValueId v) { touch(v, end); });
  // A move (cond result) makes dst alias src at run time: src lives as long as dst. Backwards,
  // so nested conds (src -> inner result -> outer result) extend along the whole chain.
  for (int32_t i = n; i-- > 0;) {
    const Node& node = graph.nodes()[static_cast<size_t>(i)];
    if (control_op(node) != ControlOp::Move) continue;
    const NamedArgument* src = node.find_input("src");
    const NamedArgument* dst = node.find_input("dst");
    if (src == nullptr || dst == nullptr) continue;
    size_t s = static_cast<size_t>(tensor_of(src->arg)), d = static_cast<size_t>(tensor_of(dst->arg));
    if (tensor_of(src->arg) == kNoValue || tensor_of(dst->arg) == kNoValue) continue;
    if (lt.planned[s] && lt.planned[d]) lt.last[s] = std::max(lt.last[s], lt.last[d]);
  }
  // Loops (a jump back to an earlier label, from while_loop): a value live anywhere in
  // [label, jump] lives for the whole range, since every iteration runs all of it.
  std::map<std::string, int32_t> labels;
  for (int32_t i = 0; i < n; ++i) {
    const Node& node = graph.nodes()[static_cast<size_t>(i)];
    const NamedArgument* l = node.find_input("label");
    if (control_op(node) == ControlOp::Label && l != nullptr) labels[l->arg.s] = i;
  }
  for (int32_t i = 0; i < n; ++i) {
    const Node& node = graph.nodes()[static_cast<size_t>(i)];
    const NamedArgument* l = node.find_input("label");
    if (control_op(node) != ControlOp::Jump || l == nullptr) continue;
    auto it = labels.find(l->arg.s);
    if (it == labels.end() || it->second > i) continue;
    const int32_t begin = it->second;
    for (size_t v = 0; v < nv; ++v) {
      if (!lt.planned[v] || lt.first[v] > i || lt.last[v] < begin) continue;
      lt.first[v] = std::min(lt.first[v], begin);
      lt.last[v] = std::max(lt.last[v], i);
    }
  }
  for (auto& [buffer, value] : mutated) {
    // Mutable buffers carry their initial value in: plan them (not as constants) from 0.
    lt.planned[static_cast<size_t>(buffer)] = true;
    lt.first[static_cast<size_t>(buffer)] = 0;
    lt.last[static_cast<size_t>(buffer)] = end;
    touch(value, end);
  }
  return lt;
}

}  // namespace

Error MemoryPlanningPass::run(Graph& graph) const {
  MemoryPlannerRegistry registry;
  EMBER_TRY(register_builtin_planners(&registry));
  EMBER_ASSIGN_OR_RETURN(std::unique_ptr<MemoryPlanner> planner, registry.create(planner_));
  Lifetimes lt = compute_lifetimes(graph);
  std::vector<PlanTensor> tensors;
  std::vector<ValueId> ids;
  for (size_t v = 0; v < graph.num_values(); ++v) {
    if (!lt.planned[v]) continue;
    TensorSpec& spec = graph.value(static_cast<ValueId>(v)).tensor;
    int64_t bytes = upper_bound_nbytes(spec);
    if (bytes < 0) {
      std::string dims;  // the dynamic dims without a max, e.g. "dim 0 (s0, min 1)"
      for (size_t d = 0; d < spec.sizes.size(); ++d) {
        const SymInt& s = spec.sizes[d];
        if (s.is_static || s.range.max) continue;
        dims += (dims.empty() ? "" : ", ") + std::string("dim ") + std::to_string(d) + " (" + s.text +
                (s.range.min ? ", min " + std::to_string(*s.range.min) : "") + ")";
      }
      return not_supported("value '" + graph.value(static_cast<ValueId>(v)).name + "' " +
                           spec.to_string() + " has an unbounded or unknown size" +
                           (dims.empty() ? "" : ": " + dims + " has no upper bound") +
                           "; export with a bounded dim, e.g. Dim(\"name\", max=N)");
    }
    PlanTensor t;
    t.size_bytes = static_cast<uint64_t>(bytes);
    t.first_use = lt.first[v];
    t.last_use = lt.last[v];
    tensors.push_back(t);
    ids.push_back(static_cast<ValueId>(v));
  }
  EMBER_ASSIGN_OR_RETURN(MemoryPlan plan, planner->plan(tensors, PlanOptions()));
  for (size_t k = 0; k < ids.size(); ++k) {
    TensorSpec& spec = graph.value(ids[k]).tensor;
    spec.lifetime_begin = tensors[k].first_use;
    spec.lifetime_end = tensors[k].last_use;
    spec.mem_id = static_cast<int32_t>(plan.placements[k].memory_id);
    spec.mem_offset = static_cast<int64_t>(plan.placements[k].offset);
  }
  if (report_ != nullptr) {
    report_->planner = planner->name();
    report_->arena_size = plan.arena_size;
    report_->lower_bound = plan.lower_bound;
    report_->planned_tensors = ids.size();
  }
  return Error::Ok;
}

}  // namespace ember::aot
