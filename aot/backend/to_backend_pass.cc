// ToBackendPass and extract_subgraph (see to_backend_pass.h).
#include "aot/backend/to_backend_pass.h"

#include <algorithm>
#include <map>
#include <set>

#include "aot/backend/delegate_metadata.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

std::string DelegationReport::summary() const {
  std::map<std::string, size_t> delegated, kept;
  std::map<std::string, std::string> reasons;
  for (const DelegationEntry& e : entries) {
    if (e.delegated) {
      ++delegated[e.backend];
    } else {
      ++kept[e.op];
      reasons[e.op] = e.reason;
    }
  }
  size_t total = entries.size();
  std::string out;
  for (auto& [backend, n] : delegated) {
    out += backend + ": " + std::to_string(n) + " of " + std::to_string(total) + " nodes in " +
           std::to_string(num_partitions) + " partition(s)\n";
  }
  if (delegated.empty()) out += "no nodes delegated (" + std::to_string(total) + " nodes)\n";
  for (auto& [op, n] : kept) {
    out += "  not delegated: " + op + " x" + std::to_string(n) +
           (reasons[op].empty() ? "" : " (" + reasons[op] + ")") + "\n";
  }
  return out;
}

Result<Graph> extract_subgraph(const Graph& graph, size_t begin, size_t end,
                                 std::vector<ValueId>* inputs, std::vector<ValueId>* outputs) {
  Graph sub;
  sub.info() = graph.info();
  sub.range_constraints() = graph.range_constraints();
  std::map<ValueId, ValueId> remap;
  auto map_value = [&](ValueId v) -> Result<ValueId> {
    auto it = remap.find(v);
    if (it != remap.end()) return it->second;
    EMBER_ASSIGN_OR_RETURN(ValueId id, sub.add_value(graph.value(v)));
    remap[v] = id;
    return id;
  };
  std::vector<bool> inside(graph.num_values(), false);
  for (size_t i = begin; i < end; ++i) {
    for (const Argument& o : graph.nodes()[i].outputs) {
      for_each_value(o, [&](ValueId v) { inside[static_cast<size_t>(v)] = true; });
    }
  }
  for (size_t i = begin; i < end; ++i) {
    Node n = graph.nodes()[i];
    for (NamedArgument& in : n.inputs) {
      for (ValueId& v : in.arg.values) {
        if (v == kNoValue) continue;
        bool known = remap.count(v) != 0;
        EMBER_ASSIGN_OR_RETURN(ValueId mapped, map_value(v));
        if (!inside[static_cast<size_t>(v)] && !known) {
          const Value& val = graph.value(v);
          bool constant = val.kind == ValueKind::Tensor && val.tensor.constant != nullptr;
          InputSpec spec;
          spec.kind = constant ? InputKind::Parameter : InputKind::UserInput;
          spec.name = val.name;
          sub.inputs().push_back(val.kind == ValueKind::Tensor ? Argument::tensor(mapped) : in.arg);
          sub.signature().inputs.push_back(spec);
          // A symbolic size (a view's sym_size argument) is not passed to the delegate call,
          // whose arguments are tensors: backends infer sizes from their tensor inputs.
          if (!constant && val.kind == ValueKind::Tensor) inputs->push_back(v);
        }
        v = mapped;
      }
    }
    for (Argument& o : n.outputs) {
      for (ValueId& v : o.values) {
        if (v == kNoValue) continue;
        EMBER_ASSIGN_OR_RETURN(v, map_value(v));
      }
    }
    sub.nodes().push_back(std::move(n));
  }
  std::vector<bool> used_after(graph.num_values(), false);
  for (size_t i = end; i < graph.nodes().size(); ++i) {
    for (const NamedArgument& in : graph.nodes()[i].inputs) {
      for_each_value(in.arg, [&](ValueId v) { used_after[static_cast<size_t>(v)] = true; });
    }
  }
  for (const Argument& o : graph.outputs()) {
    for_each_value(o, [&](ValueId v) { used_after[static_cast<size_t>(v)] = true; });
  }
  for (size_t i = begin; i < end; ++i) {
    for (const Argument& o : graph.nodes()[i].outputs) {
      for_each_value(o, [&](ValueId v) {
        if (!used_after[static_cast<size_t>(v)]) return;
        outputs->push_back(v);
        sub.outputs().push_back(Argument::tensor(remap[v]));
        sub.signature().outputs.push_back({OutputKind::UserOutput, graph.value(v).name, ""});
      });
    }
  }
  return sub;
}

namespace {

// Nodes that keep their place: markers and calls of Ember's own namespace (control flow,
// delegate calls), in-place writes (name ending in '_': their order against readers of the
// written tensor is not a data dependency) and operators of other namespaces (custom ops may
// have effects). Only aten, quantized_decomposed and symbolic scalar nodes move.
bool is_barrier(const Node& n) {
  if (n.kind != NodeKind::Op) return false;
  if (n.op.ns != "aten" && n.op.ns != "quantized_decomposed") return true;
  return !n.op.name.empty() && n.op.name.back() == '_';
}

// A topological order of graph.nodes() that groups supported and unsupported nodes: within
// each stretch between barriers, Kahn's algorithm keeps taking the earliest ready node of the
// kind it took last and switches kind only when no node of that kind is ready, starting with
// the unsupported kind. An unsupported node that depends only on inputs (a Hugging Face
// attention mask built from the attention_mask input, an embedding gather) then runs before
// the supported run instead of splitting it where the export happened to place it. Returns
// the new position -> old index.
std::vector<size_t> group_by_support(const Graph& graph, const std::vector<bool>& supported) {
  const std::vector<Node>& nodes = graph.nodes();
  std::vector<size_t> order;
  order.reserve(nodes.size());
  std::vector<size_t> producer(graph.num_values(), SIZE_MAX);
  size_t begin = 0;
  while (begin < nodes.size()) {
    size_t end = begin;
    while (end < nodes.size() && !is_barrier(nodes[end])) ++end;
    // nodes[begin, end) may move among themselves.
    const size_t n = end - begin;
    std::vector<std::vector<size_t>> users(n);
    std::vector<size_t> pending(n, 0);
    for (size_t i = begin; i < end; ++i) {
      for (const Argument& o : nodes[i].outputs) {
        for_each_value(o, [&](ValueId v) { producer[static_cast<size_t>(v)] = i; });
      }
    }
    for (size_t i = begin; i < end; ++i) {
      std::vector<size_t> deps;
      for (const NamedArgument& in : nodes[i].inputs) {
        for_each_value(in.arg, [&](ValueId v) {
          size_t p = producer[static_cast<size_t>(v)];
          if (p != SIZE_MAX && p >= begin && p < i) deps.push_back(p);
        });
      }
      std::sort(deps.begin(), deps.end());
      deps.erase(std::unique(deps.begin(), deps.end()), deps.end());
      for (size_t p : deps) users[p - begin].push_back(i - begin);
      pending[i - begin] = deps.size();
    }
    // A node that reads only constants (the transpose of a weight) is not scheduled on its
    // own: it is placed right before its first user, so it lands in that user's partition
    // and the weight stays a constant there (an XNNPACK fully-connected, quantizable), rather
    // than all such nodes running first, in one partition, copying every weight per call.
    std::vector<bool> deferred(n, false), placed(n, false);
    for (size_t k = 0; k < n; ++k) {
      if (pending[k] != 0) continue;
      bool any = false, all_constant = true;
      for (const NamedArgument& in : nodes[begin + k].inputs) {
        for_each_value(in.arg, [&](ValueId v) {
          any = true;
          all_constant = all_constant && graph.value(v).tensor.constant != nullptr;
        });
      }
      deferred[k] = any && all_constant;
    }
    std::vector<std::vector<size_t>> deferred_deps(n);
    for (size_t k = 0; k < n; ++k) {
      if (!deferred[k]) continue;
      for (size_t u : users[k]) {
        deferred_deps[u].push_back(k);
        --pending[u];
      }
    }
    std::set<size_t> ready[2];  // [0] unsupported, [1] supported; local indices, earliest first
    for (size_t k = 0; k < n; ++k) {
      if (pending[k] == 0 && !deferred[k]) ready[supported[begin + k] ? 1 : 0].insert(k);
    }
    auto place = [&](size_t k) {
      for (size_t d : deferred_deps[k]) {
        if (!placed[d]) order.push_back(begin + d);
        placed[d] = true;
      }
      order.push_back(begin + k);
      placed[k] = true;
    };
    int kind = 0;
    while (!ready[0].empty() || !ready[1].empty()) {
      if (ready[kind].empty()) kind = 1 - kind;
      size_t k = *ready[kind].begin();
      ready[kind].erase(ready[kind].begin());
      place(k);
      for (size_t u : users[k]) {
        if (--pending[u] == 0) ready[supported[begin + u] ? 1 : 0].insert(u);
      }
    }
    for (size_t k = 0; k < n; ++k) {  // constant-only nodes no node of the stretch reads
      if (deferred[k] && !placed[k]) order.push_back(begin + k);
    }
    if (end < nodes.size()) order.push_back(end);  // the barrier itself
    begin = end + 1;
  }
  return order;
}

}  // namespace

Error ToBackendPass::run(Graph& graph) const {
  if (partitioner_ == nullptr) return invalid_argument("to_backend: no partitioner");
  // What the partitioner takes, asked once per node; then the nodes are put in an order that
  // keeps the supported ones together (group_by_support).
  std::vector<Support> support;
  std::vector<bool> supported;
  for (const Node& n : graph.nodes()) {
    support.push_back(n.kind == NodeKind::Op && n.op.ns != "ember"
                          ? partitioner_->supports(n, graph)
                          : Support::no("not an operator node"));
    supported.push_back(support.back().supported);
  }
  {
    std::vector<size_t> order = group_by_support(graph, supported);
    std::vector<Node> moved;
    std::vector<Support> moved_support;
    moved.reserve(order.size());
    for (size_t i : order) {
      moved.push_back(std::move(graph.nodes()[i]));
      moved_support.push_back(std::move(support[i]));
    }
    graph.nodes() = std::move(moved);
    support = std::move(moved_support);
  }
  std::vector<Node> result;
  size_t run_begin = 0;
  int32_t partitions = report_ != nullptr ? report_->num_partitions : 0;
  std::vector<size_t> entry_of(graph.nodes().size(), SIZE_MAX);
  auto flush = [&](size_t begin, size_t end) -> Error {
    if (begin == end) return Error::Ok;
    std::vector<ValueId> ins, outs;
    EMBER_ASSIGN_OR_RETURN(Graph sub, extract_subgraph(graph, begin, end, &ins, &outs));
    EMBER_ASSIGN_OR_RETURN(PreprocessResult pre,
                               partitioner_->preprocess(sub, partitioner_->compile_specs()));
    std::vector<NamedArgument> inputs;
    for (ValueId v : ins) inputs.push_back({"", Argument::tensor(v), false});
    std::vector<Argument> outputs;
    for (ValueId v : outs) outputs.push_back(Argument::tensor(v));
    Node call = make_op_node("ember", "delegate_call", partitioner_->backend_id(), std::move(inputs),
                             std::move(outputs), graph.nodes()[begin]);
    call.name = "delegate_call_" + std::to_string(partitions);
    call.metadata[kDelegateBackendKey] = partitioner_->backend_id();
    call.metadata[kDelegateBlobKey] = std::string(pre.processed.begin(), pre.processed.end());
    if (!partitioner_->compile_specs().empty()) {
      call.metadata[kDelegateCompileSpecsKey] = encode_compile_specs(partitioner_->compile_specs());
    }
    if (!pre.named_data.empty()) {
      call.metadata[kDelegateNamedDataKey] = encode_named_data(pre.named_data);
    }
    std::vector<NodeProvenance> inside;
    for (size_t i = begin; i < end; ++i) inside.push_back(provenance_of(graph.nodes()[i]));
    call.metadata[kDelegateNodesKey] = encode_delegated_nodes(inside);
    result.push_back(std::move(call));
    if (report_ != nullptr) {
      for (size_t i = begin; i < end; ++i) {
        if (entry_of[i] != SIZE_MAX) report_->entries[entry_of[i]].partition = partitions;
      }
    }
    ++partitions;
    return Error::Ok;
  };
  size_t limit = partitioner_->max_nodes_per_partition();
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const Node& n = graph.nodes()[i];
    const Support& s = support[i];
    if (report_ != nullptr && n.kind == NodeKind::Op && n.op.ns != "ember") {
      entry_of[i] = report_->entries.size();
      report_->entries.push_back({n.name, n.op.qualified(), s.supported ? partitioner_->name() : "",
                                  s.supported, s.reason, -1});
    }
    if (s.supported && (limit == 0 || i - run_begin < limit)) continue;
    EMBER_TRY(flush(run_begin, i));
    if (s.supported) {  // the run was full: start a new one here
      run_begin = i;
      continue;
    }
    result.push_back(n);
    run_begin = i + 1;
  }
  EMBER_TRY(flush(run_begin, graph.nodes().size()));
  graph.nodes() = std::move(result);
  if (report_ != nullptr) report_->num_partitions = partitions;
  return Error::Ok;
}

}  // namespace ember::aot
