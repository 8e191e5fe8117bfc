// DistributeConvOverCatPass (see distribute_conv_over_cat_pass.h).
#include "aot/passes/distribute_conv_over_cat_pass.h"

#include <cstring>
#include <memory>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

ValueId output0(const Node& n) { return n.outputs.empty() ? kNoValue : tensor_of(n.outputs[0]); }

bool static_f32_4d(const Graph& g, ValueId v) {
  if (v == kNoValue) return false;
  const TensorSpec& t = g.value(v).tensor;
  return t.dtype == ScalarType::Float && t.rank() == 4 && t.is_static();
}

std::vector<int64_t> sizes_of(const Graph& g, ValueId v) {
  std::vector<int64_t> s;
  for (const SymInt& d : g.value(v).tensor.sizes) s.push_back(d.value);
  return s;
}

// The graph around one cat: the channel-wise nodes between it and the convolution.
struct Match {
  size_t cat = 0;
  std::vector<size_t> chain;  // clone / max_pool2d nodes, in order
  size_t conv = 0;
};

struct Index {
  std::vector<int32_t> uses;
  std::vector<size_t> consumer;  // the last node reading each value (SIZE_MAX: none)
};

// The only node reading `v`, or SIZE_MAX when v has another use or is a graph output.
size_t only_consumer(const Index& ix, ValueId v) {
  return ix.uses[size_t(v)] == 1 ? ix.consumer[size_t(v)] : SIZE_MAX;
}

bool int_arg_is(const Node& n, const char* name, int64_t want, int64_t dflt) {
  const NamedArgument* a = n.find_input(name);
  if (a == nullptr || a->arg.kind == ArgKind::None) return dflt == want;
  return a->arg.kind == ArgKind::Int && a->arg.i == want;
}

bool conv_ok(const Graph& g, const Index& ix, const Node& c, ValueId in) {
  if (!is_aten_op(c, "convolution", "default") || optional_tensor_input(c, "input") != in)
    return false;
  const NamedArgument* t = c.find_input("transposed");
  if (t != nullptr && !(t->arg.kind == ArgKind::Bool && !t->arg.b)) return false;
  if (!int_arg_is(c, "groups", 1, 1)) return false;
  const ValueId w = optional_tensor_input(c, "weight"), b = optional_tensor_input(c, "bias");
  if (!static_f32_4d(g, w) || g.value(w).tensor.constant == nullptr || ix.uses[size_t(w)] != 1)
    return false;
  if (int64_t(g.value(w).tensor.constant->bytes.size()) != g.value(w).tensor.static_numel() * 4)
    return false;
  if (b != kNoValue && g.value(b).tensor.constant == nullptr) return false;
  return static_f32_4d(g, output0(c));
}

bool find_match(const Graph& g, const Index& ix, size_t i, Match* m) {
  const Node& cat = g.nodes()[i];
  if (!is_aten_op(cat, "cat", "default")) return false;
  const NamedArgument* ts = cat.find_input("tensors");
  const ValueId out = output0(cat);
  if (ts == nullptr || ts->arg.values.size() < 2 || !static_f32_4d(g, out)) return false;
  const NamedArgument* d = cat.find_input("dim");
  const int64_t dim = d == nullptr ? 0 : d->arg.kind == ArgKind::Int ? d->arg.i : -99;
  if (dim != 1 && dim != -3) return false;
  for (ValueId v : ts->arg.values) {
    if (!static_f32_4d(g, v)) return false;
  }
  m->cat = i;
  m->chain.clear();
  ValueId v = out;
  for (;;) {
    const size_t j = only_consumer(ix, v);
    if (j == SIZE_MAX) return false;
    const Node& n = g.nodes()[j];
    if (conv_ok(g, ix, n, v)) {
      m->conv = j;
      return true;
    }
    const bool pool = is_aten_op(n, "max_pool2d_with_indices", "default") ||
                      is_aten_op(n, "max_pool2d", "default");
    if (pool) {
      if (optional_tensor_input(n, "self") != v) return false;
      for (size_t k = 1; k < n.outputs.size(); ++k) {  // the indices: unused
        const ValueId u = tensor_of(n.outputs[k]);
        if (u != kNoValue && ix.uses[size_t(u)] != 0) return false;
      }
    } else if (is_aten_op(n, "clone", "default")) {
      const NamedArgument* mf = n.find_input("memory_format");
      if (mf != nullptr && mf->arg.kind != ArgKind::None &&
          !(mf->arg.kind == ArgKind::MemoryFormat && (mf->arg.i == 1 || mf->arg.i == 4))) {
        return false;
      }
    } else {
      return false;
    }
    v = output0(n);
    if (!static_f32_4d(g, v)) return false;
    m->chain.push_back(j);
  }
}

Result<ValueId> add_like(Graph& g, ValueId like, const std::string& base, int64_t channels) {
  std::vector<int64_t> s = sizes_of(g, like);
  s[1] = channels;
  return add_tensor_value(g, base, contiguous_spec(g.value(like).tensor.dtype, static_sizes(s)));
}

// A lifted parameter holding `bytes` as f32 `sizes` (placed after the other lifted constants).
Result<ValueId> add_parameter(Graph& g, const std::string& base, const std::vector<int64_t>& sizes,
                              std::shared_ptr<ConstantData> data) {
  TensorSpec spec = contiguous_spec(ScalarType::Float, static_sizes(sizes));
  spec.constant = std::move(data);
  EMBER_ASSIGN_OR_RETURN(ValueId v, add_tensor_value(g, base, std::move(spec)));
  lift_as_parameter(g, v);
  return v;
}

// Rewrites one match; returns the nodes that replace the convolution.
Result<std::vector<Node>> rewrite(Graph& g, const Match& m) {
  const Node cat = g.nodes()[m.cat];
  const Node conv = g.nodes()[m.conv];
  const std::vector<ValueId> pieces = cat.find_input("tensors")->arg.values;
  const ValueId w = optional_tensor_input(conv, "weight"), y = output0(conv);
  const std::vector<int64_t> ws = sizes_of(g, w);
  const int64_t co = ws[0], ci = ws[1], kk = ws[2] * ws[3];
  const std::vector<uint8_t> wbytes = g.value(w).tensor.constant->bytes;
  const std::string wsource = g.value(w).tensor.constant->source;
  std::vector<Node> out;
  std::vector<ValueId> partial;
  int64_t offset = 0;
  for (size_t k = 0; k < pieces.size(); ++k) {
    ValueId cur = pieces[k];
    const int64_t c = sizes_of(g, cur)[1];
    for (size_t j : m.chain) {
      const Node& n = g.nodes()[j];
      if (is_aten_op(n, "clone", "default")) continue;
      std::vector<NamedArgument> ins = n.inputs;
      for (NamedArgument& a : ins) {
        if (a.name == "self") a.arg = Argument::tensor(cur);
      }
      std::vector<Argument> outs;
      for (const Argument& o : n.outputs) {
        const ValueId ov = tensor_of(o);
        if (ov == kNoValue) {
          outs.push_back(o);
          continue;
        }
        EMBER_ASSIGN_OR_RETURN(ValueId nv,
                               add_like(g, ov, g.value(ov).name + "_" + std::to_string(k), c));
        outs.push_back(Argument::tensor(nv));
      }
      Node p = make_op_node("aten", n.op.name, n.op.overload, std::move(ins), outs, n);
      p.name = g.value(tensor_of(outs[0])).name;
      cur = tensor_of(outs[0]);
      out.push_back(std::move(p));
    }
    // The weight's input channels [offset, offset + c).
    auto data = std::make_shared<ConstantData>();
    data->bytes.resize(size_t(co * c * kk) * 4);
    for (int64_t o = 0; o < co; ++o) {
      std::memcpy(data->bytes.data() + size_t(o * c * kk) * 4,
                  wbytes.data() + size_t((o * ci + offset) * kk) * 4, size_t(c * kk) * 4);
    }
    data->source = wsource + " (input channels " + std::to_string(offset) + ".." +
                   std::to_string(offset + c) + ", convolution distributed over cat)";
    const std::vector<int64_t> piece_sizes = {co, c, ws[2], ws[3]};
    ValueId wk = w;
    if (k == 0) {  // the original weight keeps the first piece (no unused parameter is left)
      TensorSpec spec = contiguous_spec(ScalarType::Float, static_sizes(piece_sizes));
      spec.constant = std::move(data);
      spec.requires_grad = g.value(w).tensor.requires_grad;
      g.value(w).tensor = std::move(spec);
    } else {
      EMBER_ASSIGN_OR_RETURN(wk, add_parameter(g, g.value(w).name + "_" + std::to_string(k),
                                               piece_sizes, std::move(data)));
    }
    std::vector<NamedArgument> ins = conv.inputs;
    for (NamedArgument& a : ins) {
      if (a.name == "input") a.arg = Argument::tensor(cur);
      if (a.name == "weight") a.arg = Argument::tensor(wk);
      if (a.name == "bias" && k != 0) a.arg = Argument::none();
    }
    EMBER_ASSIGN_OR_RETURN(ValueId yk,
                           add_like(g, y, g.value(y).name + "_" + std::to_string(k), co));
    Node cn = make_op_node("aten", "convolution", "default", std::move(ins), {Argument::tensor(yk)},
                           conv);
    cn.name = g.value(yk).name;
    out.push_back(std::move(cn));
    partial.push_back(yk);
    offset += c;
  }
  ValueId acc = partial[0];
  for (size_t k = 1; k < partial.size(); ++k) {
    ValueId sum = y;
    if (k + 1 < partial.size()) {
      EMBER_ASSIGN_OR_RETURN(sum,
                             add_like(g, y, g.value(y).name + "_sum_" + std::to_string(k), co));
    }
    Node a = make_op_node(
        "aten", "add", "Tensor",
        {{"self", Argument::tensor(acc), false}, {"other", Argument::tensor(partial[k]), false}},
        {Argument::tensor(sum)}, conv);
    a.name = sum == y ? conv.name : g.value(sum).name;
    out.push_back(std::move(a));
    acc = sum;
  }
  return out;
}

}  // namespace

Error DistributeConvOverCatPass::run(Graph& graph) const {
  Index ix{use_counts(graph), std::vector<size_t>(graph.num_values(), SIZE_MAX)};
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    for (const NamedArgument& in : graph.nodes()[i].inputs) {
      for_each_value(in.arg, [&](ValueId v) { ix.consumer[size_t(v)] = i; });
    }
  }
  std::vector<Match> matches;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    Match m;
    if (!find_match(graph, ix, i, &m)) continue;
    matches.push_back(m);
  }
  if (matches.empty()) return Error::Ok;
  std::vector<std::vector<Node>> replacement(graph.nodes().size());
  std::vector<bool> drop(graph.nodes().size(), false);
  for (const Match& m : matches) {
    EMBER_ASSIGN_OR_RETURN(replacement[m.conv], rewrite(graph, m));
    drop[m.cat] = true;
    for (size_t j : m.chain) drop[j] = true;
    drop[m.conv] = true;
  }
  std::vector<Node> nodes;
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (!drop[i]) nodes.push_back(std::move(graph.nodes()[i]));
    for (Node& n : replacement[i]) nodes.push_back(std::move(n));
  }
  graph.nodes() = std::move(nodes);
  return Error::Ok;
}

}  // namespace ember::aot
