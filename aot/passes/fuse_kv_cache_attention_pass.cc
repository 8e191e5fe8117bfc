// FuseKvCacheAttentionPass (see fuse_kv_cache_attention_pass.h).
#include "aot/passes/fuse_kv_cache_attention_pass.h"

#include <cstring>
#include <optional>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

struct Ctx {
  Graph& g;
  std::vector<int> producer;
  ValueUses uses;
  explicit Ctx(Graph& graph) : g(graph), producer(value_producers(graph)), uses(compute_uses(graph)) {}

  const Node* def(ValueId v) const {
    if (!g.valid_id(v)) return nullptr;
    int p = producer[size_t(v)];
    return p < 0 ? nullptr : &g.nodes()[size_t(p)];
  }
  int def_index(ValueId v) const { return g.valid_id(v) ? producer[size_t(v)] : -1; }
  size_t num_uses(ValueId v) const {
    return uses.node_users[size_t(v)].size() + (uses.is_graph_output[size_t(v)] ? 1 : 0);
  }
  const TensorSpec& spec(ValueId v) const { return g.value(v).tensor; }
};

bool g_valid(const Ctx& c, ValueId v) { return v != kNoValue && c.g.valid_id(v); }

bool same_size(const SymInt& a, const SymInt& b) {
  if (a.is_static != b.is_static) return false;
  return a.is_static ? a.value == b.value : a.text == b.text;
}

bool static_dims(const TensorSpec& s, std::vector<int64_t>* out) {
  out->clear();
  for (const SymInt& d : s.sizes) {
    if (!d.is_static) return false;
    out->push_back(d.value);
  }
  return true;
}

// Literal integer / float argument equal to `v`.
bool literal_equals(const Argument& a, int64_t v) {
  return (a.kind == ArgKind::Int && a.i == v) ||
         (a.kind == ArgKind::SymInt && a.values.empty() && a.i == v) ||
         (a.kind == ArgKind::Float && a.f == double(v));
}

// `v` is arange(len) (start 0, step 1) with len the same size as `len`.
bool is_arange_of(const Ctx& c, ValueId v, const SymInt& len) {
  const Node* n = c.def(v);
  if (n == nullptr || n->kind != NodeKind::Op || n->op.ns != "aten" || n->op.name != "arange") {
    return false;
  }
  const TensorSpec& s = c.spec(v);
  if (s.rank() != 1 || s.dtype != ScalarType::Long || !same_size(s.sizes[0], len)) return false;
  if (n->op.overload == "default") return true;
  if (n->op.overload == "start_step") {
    const NamedArgument* start = n->find_input("start");
    const NamedArgument* step = n->find_input("step");
    return (start == nullptr || literal_equals(start->arg, 0)) &&
           (step == nullptr || literal_equals(step->arg, 1));
  }
  return false;
}

// A key equal for two i64 values that provably hold the same numbers: the value itself, seen
// through copies that change nothing (same dtype and shape: _to_copy / to / clone / alias /
// copy(dst, src) -> src) and identical slices. transformers' layers each copy the start
// position (positions[0:1]) into their own cumulative_length buffer, so the mask's start and a
// layer's cache-write start are different nodes holding the same value.
std::string value_key(const Ctx& c, ValueId v, int depth = 0) {
  const Node* n = c.def(v);
  if (n == nullptr || depth > 16 || n->kind != NodeKind::Op || n->op.ns != "aten") {
    return "%" + c.g.value(v).name;
  }
  const std::string& op = n->op.name;
  ValueId src = kNoValue;
  if (op == "_to_copy" || op == "to" || op == "clone" || op == "alias" ||
      op == "lift_fresh_copy") {
    src = optional_tensor_input(*n, "self");
  } else if (op == "copy") {
    src = optional_tensor_input(*n, "src");
  }
  if (src != kNoValue) {
    const TensorSpec& a = c.spec(src);
    const TensorSpec& b = c.spec(v);
    bool same = a.dtype == b.dtype && a.rank() == b.rank();
    for (size_t k = 0; same && k < a.rank(); ++k) same = same_size(a.sizes[k], b.sizes[k]);
    if (same) return value_key(c, src, depth + 1);
  }
  if (op == "slice" && n->op.overload == "Tensor") {
    std::string key = "slice(" + value_key(c, optional_tensor_input(*n, "self"), depth + 1);
    for (const char* name : {"dim", "start", "end", "step"}) {
      const NamedArgument* a = n->find_input(name);
      if (a == nullptr) {
        key += ",-";
      } else if (a->arg.is_value_ref()) {
        return "%" + c.g.value(v).name;  // a run-time bound: compare by node only
      } else {
        key += "," + std::to_string(a->arg.i);
      }
    }
    return key + ")";
  }
  return "%" + c.g.value(v).name;
}

// Positions `v` = add.Tensor(arange(S), base) with base i64[1]: returns base (kNoValue if not).
ValueId positions_base(const Ctx& c, ValueId v, const SymInt& len) {
  const Node* n = c.def(v);
  if (n == nullptr || !is_aten_op(*n, "add", "Tensor")) return kNoValue;
  const NamedArgument* alpha = n->find_input("alpha");
  if (alpha != nullptr && !literal_equals(alpha->arg, 1)) return kNoValue;
  ValueId a = optional_tensor_input(*n, "self");
  ValueId b = optional_tensor_input(*n, "other");
  if (a == kNoValue || b == kNoValue || !is_arange_of(c, a, len)) return kNoValue;
  const TensorSpec& bs = c.spec(b);
  if (bs.dtype != ScalarType::Long || bs.static_numel() != 1 || bs.rank() > 1) return kNoValue;
  return b;
}

// Strips unsqueeze.default nodes; the innermost value.
ValueId strip_unsqueeze(const Ctx& c, ValueId v) {
  for (const Node* n = c.def(v); n != nullptr && is_aten_op(*n, "unsqueeze", "default");
       n = c.def(v)) {
    v = optional_tensor_input(*n, "self");
  }
  return v;
}

bool has_sizes(const TensorSpec& s, const std::vector<SymInt>& want) {
  if (s.rank() != want.size()) return false;
  for (size_t k = 0; k < want.size(); ++k) {
    if (!same_size(s.sizes[k], want[k])) return false;
  }
  return true;
}

// The causal mask of the header: le(kv [1,1,1,T], q [1,1,S,1]) with kv = arange(T) [+ 0] and
// q positions from `base` (possibly expanded).
bool is_causal_mask(const Ctx& c, ValueId mask, ValueId base, const SymInt& S, int64_t T) {
  if (mask == kNoValue || c.spec(mask).dtype != ScalarType::Bool) return false;
  const Node* n = c.def(mask);
  if (n != nullptr && is_aten_op(*n, "expand", "default")) {
    mask = optional_tensor_input(*n, "self");
    n = c.def(mask);
  }
  if (n == nullptr || !is_aten_op(*n, "le", "Tensor")) return false;
  ValueId kv4 = optional_tensor_input(*n, "self");
  ValueId q4 = optional_tensor_input(*n, "other");
  if (kv4 == kNoValue || q4 == kNoValue) return false;
  const SymInt one = SymInt::of(1), t = SymInt::of(T);
  if (!has_sizes(c.spec(kv4), {one, one, one, t}) || !has_sizes(c.spec(q4), {one, one, S, one})) {
    return false;
  }
  ValueId kv = strip_unsqueeze(c, kv4), q = strip_unsqueeze(c, q4);
  if (c.spec(kv).rank() != 1 || c.spec(q).rank() != 1) return false;
  if (!is_arange_of(c, kv, t)) {
    const Node* add = c.def(kv);
    if (add == nullptr) return false;
    bool plus_zero = (is_aten_op(*add, "add", "Tensor") || is_aten_op(*add, "add", "Scalar")) &&
                     add->find_input("other") != nullptr &&
                     literal_equals(add->find_input("other")->arg, 0) &&
                     (add->find_input("alpha") == nullptr ||
                      literal_equals(add->find_input("alpha")->arg, 1));
    if (!plus_zero || !is_arange_of(c, optional_tensor_input(*add, "self"), t)) return false;
  }
  ValueId qbase = positions_base(c, q, S);
  return qbase != kNoValue && value_key(c, qbase) == value_key(c, base);
}

struct CacheRead {
  int write = -1;               // node index of the cache write
  ValueId buffer = kNoValue;    // the mutable buffer (graph input)
  ValueId written = kNoValue;   // the write's output (the buffer's new value)
  ValueId source = kNoValue;    // the new entries [B, Hkv, S, D]
  ValueId index = kNoValue;     // positions [S]
  int64_t heads = 0;            // Hkv
  std::vector<int> chain;       // GQA repeat nodes between the write and the attention
};

bool is_buffer_mutation_output(const Ctx& c, ValueId written) {
  const auto& outs = c.g.outputs();
  const auto& specs = c.g.signature().outputs;
  for (size_t k = 0; k < outs.size() && k < specs.size(); ++k) {
    if (tensor_of(outs[k]) == written && specs[k].kind == OutputKind::BufferMutation) return true;
  }
  return false;
}

bool is_buffer_input(const Ctx& c, ValueId v) {
  for (ValueId b : c.g.inputs_of_kind(InputKind::Buffer)) {
    if (b == v) return true;
  }
  return false;
}

// `kv` (the attention's key or value, [B, H, T, D]) read from a cache written in place.
std::optional<CacheRead> match_cache_read(const Ctx& c, ValueId kv, int64_t B, int64_t H,
                                          int64_t D, bool enable_gqa) {
  CacheRead r;
  ValueId w = kv;
  const Node* n = c.def(kv);
  if (n != nullptr && (is_aten_op(*n, "reshape", "default") || is_aten_op(*n, "view", "default"))) {
    ValueId x = optional_tensor_input(*n, "self");
    const Node* e = c.def(x);
    if (e == nullptr || !is_aten_op(*e, "expand", "default") || c.num_uses(x) != 1) return {};
    ValueId u = optional_tensor_input(*e, "self");
    const Node* un = c.def(u);
    if (un == nullptr || !is_aten_op(*un, "unsqueeze", "default") || c.num_uses(u) != 1) return {};
    const NamedArgument* dim = un->find_input("dim");
    if (dim == nullptr || !literal_equals(dim->arg, 2)) return {};
    w = optional_tensor_input(*un, "self");
    std::vector<int64_t> ws, xs, ks;
    if (!g_valid(c, w) || !static_dims(c.spec(w), &ws) || !static_dims(c.spec(x), &xs) ||
        !static_dims(c.spec(kv), &ks) || ws.size() != 4 || xs.size() != 5) {
      return {};
    }
    // unsqueeze(w, 2) expanded along the new dim only, then merged with the head dim.
    if (xs != std::vector<int64_t>{ws[0], ws[1], xs[2], ws[2], ws[3]} ||
        ks != std::vector<int64_t>{ws[0], ws[1] * xs[2], ws[2], ws[3]}) {
      return {};
    }
    if (c.num_uses(kv) != 1) return {};
    r.chain = {c.def_index(u), c.def_index(x), c.def_index(kv)};
  }
  if (!g_valid(c, w)) return {};
  const Node* wn = c.def(w);
  if (wn == nullptr) return {};
  std::vector<int64_t> ws;
  const TensorSpec& wspec = c.spec(w);
  if (wspec.dtype != ScalarType::Float || !static_dims(wspec, &ws) || ws.size() != 4) return {};
  if (ws[0] != B || ws[3] != D || ws[1] <= 0 || H % ws[1] != 0) return {};
  if (r.chain.empty() && ws[1] != H && !enable_gqa) return {};
  if (!r.chain.empty() && enable_gqa) return {};
  r.heads = ws[1];
  if (is_aten_op(*wn, "index_copy", "default")) {
    const NamedArgument* dim = wn->find_input("dim");
    if (dim == nullptr || !literal_equals(dim->arg, 2)) return {};
    r.buffer = optional_tensor_input(*wn, "self");
    r.index = optional_tensor_input(*wn, "index");
    r.source = optional_tensor_input(*wn, "source");
  } else if (is_aten_op(*wn, "index_put", "default")) {
    const NamedArgument* acc = wn->find_input("accumulate");
    if (acc != nullptr && !(acc->arg.kind == ArgKind::Bool && !acc->arg.b)) return {};
    const NamedArgument* idx = wn->find_input("indices");
    if (idx == nullptr || idx->arg.kind != ArgKind::OptionalTensorList ||
        idx->arg.values.size() != 3 || idx->arg.values[0] != kNoValue ||
        idx->arg.values[1] != kNoValue || idx->arg.values[2] == kNoValue) {
      return {};
    }
    r.buffer = optional_tensor_input(*wn, "self");
    r.index = idx->arg.values[2];
    r.source = optional_tensor_input(*wn, "values");
  } else {
    return {};
  }
  if (r.buffer == kNoValue || r.index == kNoValue || r.source == kNoValue) return {};
  if (!is_buffer_input(c, r.buffer) || c.num_uses(r.buffer) != 1) return {};
  if (!has_sizes(c.spec(r.buffer), wspec.sizes) || c.spec(r.buffer).dtype != ScalarType::Float) {
    return {};
  }
  // The new value is read by this attention (directly or through the chain) and written back.
  if (!is_buffer_mutation_output(c, w) || c.num_uses(w) != 2 ||
      c.uses.node_users[size_t(w)].size() != 1) {
    return {};
  }
  r.write = c.def_index(w);
  r.written = w;
  return r;
}

Result<ValueId> new_tensor(Graph& g, const std::string& base, std::vector<SymInt> sizes) {
  return add_tensor_value(g, base, contiguous_spec(ScalarType::Float, std::move(sizes)));
}

// [B, H, S, D] -> [B, S, H, D] (and back: the same permutation).
std::vector<SymInt> swap12(const std::vector<SymInt>& s) { return {s[0], s[2], s[1], s[3]}; }

Node permute_node(ValueId in, ValueId out, const Node& origin) {
  return make_op_node("aten", "permute", "default",
                      {{"self", Argument::tensor(in)}, {"dims", Argument::int_list({0, 2, 1, 3})}},
                      {Argument::tensor(out)}, origin);
}

// Re-lays out buffer `b` (and its initial contents) from [B, H, T, D] to [B, T, H, D].
void relayout_buffer(Graph& g, ValueId b) {
  TensorSpec& s = g.value(b).tensor;
  std::vector<int64_t> d;
  static_dims(s, &d);
  std::shared_ptr<const ConstantData> old = s.constant;
  TensorSpec ns = contiguous_spec(s.dtype, swap12(s.sizes));
  ns.requires_grad = s.requires_grad;
  if (old != nullptr) {
    auto c = std::make_shared<ConstantData>();
    c->source = old->source + " (laid out [B, T, H, D])";
    c->bytes.resize(old->bytes.size());
    const size_t e = sizeof(float);
    for (int64_t b0 = 0; b0 < d[0]; ++b0)
      for (int64_t h = 0; h < d[1]; ++h)
        for (int64_t t = 0; t < d[2]; ++t) {
          size_t from = size_t(((b0 * d[1] + h) * d[2] + t) * d[3]) * e;
          size_t to = size_t(((b0 * d[2] + t) * d[1] + h) * d[3]) * e;
          std::memcpy(c->bytes.data() + to, old->bytes.data() + from, size_t(d[3]) * e);
        }
    ns.constant = std::move(c);
  }
  s = std::move(ns);
}

struct Match {
  int sdpa = -1;
  CacheRead k, v;
  ValueId base = kNoValue;
  ValueId query = kNoValue;
  std::optional<double> scale;
};

std::optional<Match> match_at(const Ctx& c, int i) {
  const Node& n = c.g.nodes()[size_t(i)];
  if (!is_aten_op(n, "scaled_dot_product_attention", "default")) return {};
  const OpSchema* schema = nullptr;
  auto bound = bound_arguments(c.g, n, &schema);
  if (!bound.ok()) return {};
  const std::vector<Argument>& a = bound.get();
  if (a.size() != 8) return {};
  // query key value attn_mask dropout_p is_causal scale enable_gqa
  if (!(a[4].kind == ArgKind::Float && a[4].f == 0.0)) return {};
  if (!(a[5].kind == ArgKind::Bool && !a[5].b)) return {};
  bool gqa = a[7].kind == ArgKind::Bool && a[7].b;
  Match m;
  m.sdpa = i;
  m.query = tensor_of(a[0]);
  if (a[6].kind == ArgKind::Float) {
    m.scale = a[6].f;
  } else if (a[6].kind != ArgKind::None) {
    return {};
  }
  if (!g_valid(c, m.query) || n.outputs.size() != 1 || tensor_of(n.outputs[0]) == kNoValue) {
    return {};
  }
  const TensorSpec& q = c.spec(m.query);
  if (q.dtype != ScalarType::Float || q.rank() != 4 || !q.sizes[0].is_static ||
      !q.sizes[1].is_static || !q.sizes[3].is_static) {
    return {};
  }
  const int64_t B = q.sizes[0].value, H = q.sizes[1].value, D = q.sizes[3].value;
  const SymInt& S = q.sizes[2];
  auto k = match_cache_read(c, tensor_of(a[1]), B, H, D, gqa);
  auto v = match_cache_read(c, tensor_of(a[2]), B, H, D, gqa);
  if (!k || !v || k->buffer == v->buffer || k->heads != v->heads) return {};
  const int64_t T = c.spec(k->buffer).sizes[2].value;
  if (c.spec(v->buffer).sizes[2].value != T) return {};
  // New entries [B, Hkv, S, D] at positions arange(S) + base, one base for both caches.
  for (const CacheRead* r : {&*k, &*v}) {
    if (!has_sizes(c.spec(r->source), {SymInt::of(B), SymInt::of(k->heads), S, SymInt::of(D)}) ||
        c.spec(r->source).dtype != ScalarType::Float) {
      return {};
    }
  }
  m.base = positions_base(c, k->index, S);
  if (m.base == kNoValue) return {};
  ValueId vbase = positions_base(c, v->index, S);
  if (vbase == kNoValue || value_key(c, vbase) != value_key(c, m.base)) return {};
  if (!is_causal_mask(c, tensor_of(a[3]), m.base, S, T)) return {};
  // Everything the rewrite reads is defined before the attention.
  if (k->write > i || v->write > i) return {};
  m.k = std::move(*k);
  m.v = std::move(*v);
  return m;
}

int sym_counter(const Graph& g) {
  int n = 0;
  while (g.range_constraints().count("kv_start" + std::to_string(n)) != 0) ++n;
  return n;
}

Error rewrite(Graph& g, const Match& m) {
  const Node origin = g.nodes()[size_t(m.sdpa)];
  const ValueId out = tensor_of(origin.outputs[0]);
  const TensorSpec q = g.value(m.query).tensor;
  const int64_t T = g.value(m.k.buffer).tensor.sizes[2].value;
  std::vector<Node> before_sdpa;
  // The caches: [B, T, Hkv, D]; the writes take [B, S, Hkv, D] along dim 1.
  for (const CacheRead* r : {&m.k, &m.v}) {
    relayout_buffer(g, r->buffer);
    TensorSpec src = g.value(r->source).tensor;
    EMBER_ASSIGN_OR_RETURN(ValueId ps, new_tensor(g, g.value(r->source).name + "_bshd",
                                                  swap12(src.sizes)));
    Node& w = g.nodes()[size_t(r->write)];
    Node p = permute_node(r->source, ps, w);
    Node copy = make_op_node("aten", "index_copy", "default",
                             {{"self", Argument::tensor(r->buffer)},
                              {"dim", Argument::integer(1)},
                              {"index", Argument::tensor(r->index)},
                              {"source", Argument::tensor(ps)}},
                             w.outputs, w);
    copy.name = w.name;
    TensorSpec& ws = g.value(r->written).tensor;
    ws = contiguous_spec(ws.dtype, swap12(ws.sizes));
    w = std::move(copy);
    // The permute goes right before the write (inserted below, highest index first).
    before_sdpa.push_back(std::move(p));
  }
  // start_pos: the scalar in base.
  const std::string sym = "kv_start" + std::to_string(sym_counter(g));
  Value sv;
  sv.name = fresh_value_name(g, sym);
  sv.kind = ValueKind::SymInt;
  sv.sym.is_static = false;
  sv.sym.expr = sym;
  sv.sym.text = sym;
  sv.sym.range = SymRange{0, T - 1};
  EMBER_ASSIGN_OR_RETURN(ValueId start, g.add_value(std::move(sv)));
  g.range_constraints()[sym] = SymRange{0, T - 1};
  Node item = make_op_node("aten", "_local_scalar_dense", "default",
                           {{"self", Argument::tensor(m.base)}}, {Argument::tensor(start)}, origin);
  item.outputs[0].kind = ArgKind::SymInt;
  EMBER_ASSIGN_OR_RETURN(ValueId qt, new_tensor(g, g.value(m.query).name + "_bshd", swap12(q.sizes)));
  Node qp = permute_node(m.query, qt, origin);
  EMBER_ASSIGN_OR_RETURN(ValueId att, new_tensor(g, origin.name + "_bshd", swap12(q.sizes)));
  NamedArgument start_arg{"start_pos", Argument::none()};
  start_arg.arg.kind = ArgKind::SymInt;
  start_arg.arg.values = {start};
  Node sdpa = make_op_node(
      "llama", "custom_sdpa", "default",
      {{"query", Argument::tensor(qt)}, {"key", Argument::tensor(m.k.written)},
       {"value", Argument::tensor(m.v.written)}, start_arg,
       {"attn_mask", Argument::none()}, {"drop_p", Argument::floating(0.0)},
       {"is_causal", Argument::boolean(true)},
       {"scale", m.scale ? Argument::floating(*m.scale) : Argument::none()}},
      {Argument::tensor(att)}, origin);
  // The attention's output [B, H, S, D]: a transpose(1, 2) reading it reads `att` directly.
  ValueUses uses = compute_uses(g);
  int folded_transpose = -1;
  if (uses.node_users[size_t(out)].size() == 1 && !uses.is_graph_output[size_t(out)]) {
    const int user_index = uses.node_users[size_t(out)][0];
    Node& user = g.nodes()[size_t(user_index)];
    bool t12 = is_aten_op(user, "transpose", "int") && user.find_input("dim0") != nullptr &&
               user.find_input("dim1") != nullptr &&
               ((literal_equals(user.find_input("dim0")->arg, 1) &&
                 literal_equals(user.find_input("dim1")->arg, 2)) ||
                (literal_equals(user.find_input("dim0")->arg, 2) &&
                 literal_equals(user.find_input("dim1")->arg, 1)));
    if (t12 && tensor_of(user.outputs[0]) != kNoValue) {
      ValueId tout = tensor_of(user.outputs[0]);
      replace_uses(g, tout, att);
      folded_transpose = user_index;
    }
  }
  std::vector<Node> at_sdpa = {item, qp, sdpa};
  if (folded_transpose < 0) at_sdpa.push_back(permute_node(att, out, origin));  // `out` stays
  // Assemble: drop the old attention and its GQA chains; insert the new nodes.
  std::vector<Node> nodes;
  std::vector<bool> drop(g.nodes().size(), false);
  drop[size_t(m.sdpa)] = true;
  if (folded_transpose >= 0) drop[size_t(folded_transpose)] = true;
  for (int x : m.k.chain) drop[size_t(x)] = true;
  for (int x : m.v.chain) drop[size_t(x)] = true;
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    if (int(i) == m.k.write) nodes.push_back(before_sdpa[0]);
    if (int(i) == m.v.write) nodes.push_back(before_sdpa[1]);
    if (int(i) == m.sdpa) {
      for (Node& n : at_sdpa) nodes.push_back(std::move(n));
    }
    if (!drop[i]) nodes.push_back(std::move(g.nodes()[i]));
  }
  g.nodes() = std::move(nodes);
  return Error::Ok;
}

}  // namespace

Error FuseKvCacheAttentionPass::run(Graph& graph) const {
  // One match at a time (a rewrite moves node indices); a node that did not match is never
  // matched again, since nothing the rewrite changes makes another attention match.
  size_t next = 0;
  while (next < graph.nodes().size()) {
    std::optional<Match> m;
    size_t i = next;
    for (; i < graph.nodes().size() && !m; ++i) {
      if (!is_aten_op(graph.nodes()[i], "scaled_dot_product_attention", "default")) continue;
      Ctx c(graph);
      m = match_at(c, int(i));
    }
    if (!m) break;
    EMBER_TRY(rewrite(graph, *m));
    next = size_t(m->sdpa);  // the nodes before it moved by at most the inserted permutes
  }
  return Error::Ok;
}

int count_custom_sdpa(const Graph& graph) {
  int n = 0;
  for (const Node& node : graph.nodes()) {
    n += node.kind == NodeKind::Op && node.op.ns == "llama" && node.op.name == "custom_sdpa";
  }
  return n;
}

}  // namespace ember::aot
