// Annotation and observer grouping (see annotate.h). Each annotate_* function mirrors the
// torch 2.6 annotator of the same name in xnnpack_quantizer_utils.py.
#include "aot/quantize/annotate.h"

#include <algorithm>
#include <map>
#include <set>

#include "aot/ir/graph_util.h"

namespace ember::aot {
namespace {

struct NodeAnn {
  std::vector<std::pair<ValueId, QSpec>> inputs;  // input_qspec_map, insertion order
  bool has_output = false;
  QSpec output;
  bool annotated = false;
  bool has_meta = false;
  void set_input(ValueId v, QSpec q) {
    for (auto& e : inputs) {
      if (e.first == v) {
        e.second = q;
        return;
      }
    }
    inputs.emplace_back(v, q);
  }
};

QSpec act() { return QSpec{QSpecKind::Activation, {}}; }
QSpec weight() { return QSpec{QSpecKind::Weight, {}}; }
QSpec none() { return QSpec{}; }
QSpec shared(QuantKey k) { return QSpec{QSpecKind::Shared, k}; }

ValueId arg_tensor(const Argument& a) { return a.kind == ArgKind::Tensor ? a.values[0] : kNoValue; }

bool is_op(const Node& n, const char* name, const char* overload) {
  return n.kind == NodeKind::Op && n.op.ns == "aten" && n.op.name == name &&
         n.op.overload == overload;
}
bool is_relu(const Node& n) { return is_op(n, "relu", "default") || is_op(n, "relu_", "default"); }
bool is_linear(const Node& n) { return is_op(n, "linear", "default"); }
bool is_conv(const Node& n) { return is_op(n, "conv1d", "default") || is_op(n, "conv2d", "default"); }
bool is_add(const Node& n) { return is_op(n, "add", "Tensor") || is_op(n, "add_", "Tensor"); }
bool is_mul(const Node& n) { return is_op(n, "mul", "Tensor") || is_op(n, "mul_", "Tensor"); }

bool is_share_op(const Node& n) {
  static const std::pair<const char*, const char*> kOps[] = {
      {"relu", "default"},         {"hardtanh", "default"},     {"hardtanh_", "default"},
      {"max_pool2d", "default"},   {"mean", "default"},         {"mean", "dim"},
      {"permute", "default"},      {"permute_copy", "default"}, {"squeeze", "dim"},
      {"squeeze_copy", "dim"},     {"adaptive_avg_pool2d", "default"},
      {"view_copy", "default"},    {"view", "default"},         {"slice_copy", "Tensor"},
      {"flatten", "using_ints"}};
  for (const auto& o : kOps) {
    if (is_op(n, o.first, o.second)) return true;
  }
  return false;
}

ValueId first_input(const Node& n) {
  return n.inputs.empty() ? kNoValue : arg_tensor(n.inputs[0].arg);
}
ValueId named_input(const Node& n, const char* name) {
  const NamedArgument* a = n.find_input(name);
  return a == nullptr ? kNoValue : arg_tensor(a->arg);
}

class Annotator {
 public:
  explicit Annotator(const Graph& g)
      : g_(g), ann_(g.nodes().size()), producer_(value_producers(g)), uses_(compute_uses(g)) {}

  void run() {
    annotate_linear_relu();
    annotate_linear();
    annotate_conv_relu();
    annotate_conv();
    annotate_adaptive_avg_pool2d();
    annotate_binary_relu(is_add);
    annotate_binary(is_add);
    annotate_binary_relu(is_mul);
    annotate_binary(is_mul);
    annotate_cat();
    propagate();
  }

  QuantPlan plan() const;

 private:
  int num_users(ValueId v) const {
    return int(uses_.node_users[size_t(v)].size()) + (uses_.is_graph_output[size_t(v)] ? 1 : 0);
  }
  int producer(ValueId v) const { return v == kNoValue ? -1 : producer_[size_t(v)]; }
  bool annotated_value(ValueId v) const {
    if (v == kNoValue) return false;
    const int p = producer(v);
    return p >= 0 ? ann_[size_t(p)].annotated : annotated_inputs_.count(v) > 0;
  }
  void mark_value(ValueId v) {
    if (v == kNoValue) return;
    const int p = producer(v);
    if (p >= 0) {
      ann_[size_t(p)].annotated = true;
      ann_[size_t(p)].has_meta = true;
    } else {
      annotated_inputs_.insert(v);
    }
  }
  bool is_float(ValueId v) const {
    return v != kNoValue && g_.value(v).kind == ValueKind::Tensor &&
           g_.value(v).tensor.dtype == ScalarType::Float;
  }
  ValueId out(size_t i) const {
    const Node& n = g_.nodes()[i];
    return n.outputs.empty() ? kNoValue : arg_tensor(n.outputs[0]);
  }
  int producer_op(ValueId v, bool (*pred)(const Node&)) const {
    const int p = producer(v);
    return p >= 0 && pred(g_.nodes()[size_t(p)]) ? p : -1;
  }

  // conv / linear with an optional fused relu (the relu's output carries the output qspec).
  void annotate_weighted(bool (*op)(const Node&), bool with_relu, bool check_partition) {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      size_t op_index = i;
      if (with_relu) {
        if (!is_relu(n)) continue;
        const int p = producer_op(first_input(n), op);
        if (p < 0 || num_users(out(size_t(p))) > 1) continue;
        op_index = size_t(p);
      } else if (!op(n)) {
        continue;
      }
      const Node& w = g_.nodes()[op_index];
      const ValueId x = named_input(w, "input"), wt = named_input(w, "weight"),
                    b = named_input(w, "bias");
      if (x == kNoValue || wt == kNoValue) continue;
      if (with_relu || check_partition) {
        if (ann_[op_index].annotated || annotated_value(wt) || annotated_value(b) ||
            (with_relu && ann_[i].annotated)) {
          continue;
        }
      } else if (ann_[op_index].annotated) {
        continue;
      }
      NodeAnn& a = ann_[op_index];
      a.set_input(x, act());
      a.set_input(wt, weight());
      if (b != kNoValue) a.set_input(b, none());
      a.annotated = a.has_meta = true;
      if (with_relu) {
        ann_[i].has_output = true;
        ann_[i].output = act();
        ann_[i].annotated = ann_[i].has_meta = true;
        lines_.push_back(w.name + " + " + n.name + ": " + describe(w) + " -> output " + n.name);
      } else {
        a.has_output = true;
        a.output = act();
        lines_.push_back(w.name + ": " + describe(w) + " -> output " + w.name);
      }
      mark_value(wt);
      mark_value(b);
    }
  }
  std::string describe(const Node& n) const {
    const ValueId x = named_input(n, "input"), wt = named_input(n, "weight"),
                  b = named_input(n, "bias");
    std::string s = "activation " + g_.value(x).name + ", per-channel int8 weight " +
                    g_.value(wt).name;
    if (b != kNoValue) s += ", float bias " + g_.value(b).name;
    return s;
  }

  void annotate_linear_relu() { annotate_weighted(is_linear, true, false); }
  void annotate_linear() { annotate_weighted(is_linear, false, false); }
  void annotate_conv_relu() { annotate_weighted(is_conv, true, true); }
  void annotate_conv() { annotate_weighted(is_conv, false, true); }

  bool has_output_qspec(ValueId v) const {
    const int p = producer(v);
    return p >= 0 && ann_[size_t(p)].annotated && ann_[size_t(p)].has_output;
  }

  void annotate_adaptive_avg_pool2d() {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      if (!is_op(n, "adaptive_avg_pool2d", "default") || ann_[i].annotated) continue;
      const ValueId x = first_input(n);
      if (x == kNoValue) continue;
      NodeAnn& a = ann_[i];
      a.set_input(x, has_output_qspec(x) ? shared(QuantKey{x, -1}) : act());
      a.has_output = true;
      a.output = shared(QuantKey{x, int(i)});
      a.annotated = a.has_meta = true;
      lines_.push_back(n.name + ": output shares the parameters of its input " + g_.value(x).name);
    }
  }

  bool scalar_or_skip(ValueId v) const { return v != kNoValue && !is_float(v); }

  void annotate_binary_relu(bool (*op)(const Node&)) {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      if (!is_relu(n)) continue;
      const int p = producer_op(first_input(n), op);
      if (p < 0 || num_users(out(size_t(p))) > 1) continue;
      if (ann_[i].annotated || ann_[size_t(p)].annotated) continue;
      const Node& b = g_.nodes()[size_t(p)];
      const ValueId a0 = arg_tensor(b.inputs[0].arg);
      const ValueId a1 = b.inputs.size() > 1 ? arg_tensor(b.inputs[1].arg) : kNoValue;
      if (scalar_or_skip(a0) || scalar_or_skip(a1)) continue;
      NodeAnn& a = ann_[size_t(p)];
      if (a0 != kNoValue) a.set_input(a0, act());
      if (a1 != kNoValue) a.set_input(a1, act());
      a.annotated = a.has_meta = true;
      ann_[i].has_output = true;
      ann_[i].output = act();
      ann_[i].annotated = ann_[i].has_meta = true;
      lines_.push_back(b.name + " + " + n.name + ": int8 inputs, output " + n.name);
    }
  }

  void annotate_binary(bool (*op)(const Node&)) {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      if (!op(n) || ann_[i].annotated) continue;
      const ValueId a0 = arg_tensor(n.inputs[0].arg);
      const ValueId a1 = n.inputs.size() > 1 ? arg_tensor(n.inputs[1].arg) : kNoValue;
      if (scalar_or_skip(a0) || scalar_or_skip(a1)) continue;
      NodeAnn& a = ann_[i];
      if (a0 != kNoValue) a.set_input(a0, act());
      if (a1 != kNoValue) a.set_input(a1, act());
      a.has_output = true;
      a.output = act();
      a.annotated = a.has_meta = true;
      lines_.push_back(n.name + ": int8 inputs and output");
    }
  }

  void annotate_cat() {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      if (!is_op(n, "cat", "default") || ann_[i].annotated || n.inputs.empty()) continue;
      const std::vector<ValueId>& ins = n.inputs[0].arg.values;
      if (ins.empty() || ins[0] == kNoValue) continue;
      NodeAnn& a = ann_[i];
      a.set_input(ins[0], act());
      const QuantKey first{ins[0], int(i)};
      for (size_t k = 1; k < ins.size(); ++k) {
        bool present = false;
        for (const auto& e : a.inputs) present = present || e.first == ins[k];
        if (!present) a.set_input(ins[k], shared(first));
      }
      a.has_output = true;
      a.output = shared(first);
      a.annotated = a.has_meta = true;
      lines_.push_back(n.name + ": inputs and output share the parameters of " +
                       g_.value(ins[0]).name);
    }
  }

  void propagate() {
    for (size_t i = 0; i < g_.nodes().size(); ++i) {
      const Node& n = g_.nodes()[i];
      if (!is_share_op(n)) continue;
      const ValueId prev = first_input(n);
      const int p = producer(prev);
      if (p < 0 || !ann_[size_t(p)].has_meta || !ann_[size_t(p)].has_output) continue;
      if (ann_[i].annotated) continue;
      NodeAnn& a = ann_[i];
      a.set_input(prev, shared(QuantKey{prev, -1}));
      a.has_output = true;
      a.output = shared(QuantKey{prev, -1});
      a.annotated = a.has_meta = true;
      lines_.push_back(n.name + ": shares the parameters of " + g_.value(prev).name);
    }
  }

  const Graph& g_;
  std::vector<NodeAnn> ann_;
  std::vector<int> producer_;
  ValueUses uses_;
  std::set<ValueId> annotated_inputs_;
  std::vector<std::string> lines_;
};

// PyTorch's prepare: union-find over the keys (see prepare.py _get_edge_or_node_to_group_id).
class Grouper {
 public:
  Grouper(const Graph& g, std::vector<std::pair<QuantKey, QSpec>> specs)
      : g_(g), specs_(std::move(specs)), uses_(compute_uses(g)) {
    for (size_t i = 0; i < specs_.size(); ++i) {
      index_[specs_[i].first] = int(i);
      parent_.push_back(int(i));
    }
  }

  QuantPlan run() {
    for (size_t i = 0; i < specs_.size(); ++i) {
      const QuantKey& k = specs_[i].first;
      const QSpec& q = specs_[i].second;
      if (k.consumer < 0) {
        update_shared_with(int(i), q);
        continue;
      }
      const QSpecKind root_kind = unwrap(q);
      for (int user : uses_.node_users[size_t(k.value)]) {
        if (user == k.consumer) continue;
        union_input_edge_with(int(i), root_kind, QuantKey{k.value, user});
      }
      union_input_edge_with(int(i), root_kind, QuantKey{k.value, -1});
      update_shared_with(int(i), q);
    }
    QuantPlan plan;
    plan.specs = specs_;
    plan.group_of.assign(specs_.size(), -1);
    std::map<int, int> group_of_root;
    std::vector<std::set<ValueId>> members;
    for (size_t i = 0; i < specs_.size(); ++i) {
      const int root = find(int(i));
      auto it = group_of_root.find(root);
      int gid;
      if (it == group_of_root.end()) {
        const QSpecKind kind = unwrap(specs_[i].second);
        if (kind == QSpecKind::None) {
          gid = -1;
        } else {
          gid = int(plan.groups.size());
          ObserverGroup grp;
          grp.kind = kind == QSpecKind::Weight ? ObserverKind::PerChannelMinMax
                                               : ObserverKind::Histogram;
          plan.groups.push_back(grp);
          members.emplace_back();
        }
        group_of_root[root] = gid;
      } else {
        gid = it->second;
      }
      plan.group_of[i] = gid;
      if (gid >= 0) members[size_t(gid)].insert(specs_[i].first.value);
    }
    // Execution order: graph inputs first (in order), then node outputs.
    std::vector<int> position(g_.num_values(), 1 << 30);
    int pos = 0;
    for (const Argument& in : g_.inputs()) {
      for_each_value(in, [&](ValueId v) { position[size_t(v)] = pos++; });
    }
    for (const Node& n : g_.nodes()) {
      for (const Argument& o : n.outputs) {
        for_each_value(o, [&](ValueId v) { position[size_t(v)] = pos++; });
      }
    }
    for (size_t gi = 0; gi < plan.groups.size(); ++gi) {
      std::vector<ValueId> vs(members[gi].begin(), members[gi].end());
      std::sort(vs.begin(), vs.end(), [&](ValueId a, ValueId b) {
        return position[size_t(a)] < position[size_t(b)];
      });
      plan.groups[gi].observed = vs;
    }
    return plan;
  }

 private:
  int key_index(const QuantKey& k) {
    auto it = index_.find(k);
    if (it != index_.end()) return it->second;
    return -1;
  }
  int find(int i) {
    while (parent_[size_t(i)] != i) i = parent_[size_t(i)];
    return i;
  }
  void unite(int parent, int child) { parent_[size_t(find(child))] = find(parent); }
  void update_shared_with(int child, const QSpec& q) {
    if (q.kind != QSpecKind::Shared) return;
    const int parent = key_index(q.shared);
    if (parent >= 0) unite(parent, child);
  }
  QSpecKind unwrap(QSpec q) {
    for (int guard = 0; q.kind == QSpecKind::Shared && guard < 1000; ++guard) {
      const int k = key_index(q.shared);
      if (k < 0) return QSpecKind::None;
      q = specs_[size_t(find(k))].second;
    }
    return q.kind;
  }
  void union_input_edge_with(int input_edge, QSpecKind edge_root, const QuantKey& other) {
    const int k = key_index(other);
    if (k < 0) return;
    const QSpecKind root = unwrap(specs_[size_t(k)].second);
    if (root != QSpecKind::None && root == edge_root) unite(k, input_edge);
  }

  const Graph& g_;
  std::vector<std::pair<QuantKey, QSpec>> specs_;
  ValueUses uses_;
  std::map<QuantKey, int> index_;
  std::vector<int> parent_;
};

}  // namespace

QuantPlan Annotator::plan() const {
  std::vector<std::pair<QuantKey, QSpec>> specs;
  for (size_t i = 0; i < ann_.size(); ++i) {
    const NodeAnn& a = ann_[i];
    if (!a.has_meta) continue;
    for (const auto& in : a.inputs) specs.emplace_back(QuantKey{in.first, int(i)}, in.second);
    if (a.has_output) specs.emplace_back(QuantKey{out(i), -1}, a.output);
  }
  QuantPlan plan = Grouper(g_, std::move(specs)).run();
  plan.annotations = lines_;
  return plan;
}

int QuantPlan::group(const QuantKey& key) const {
  for (size_t i = 0; i < specs.size(); ++i) {
    if (specs[i].first == key) return group_of[i];
  }
  return -1;
}

QuantPlan annotate_xnnpack_symmetric(const Graph& graph) {
  Annotator a(graph);
  a.run();
  return a.plan();
}

}  // namespace ember::aot
