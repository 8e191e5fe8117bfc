// SerializeContext (see serialize_context.h): layouts, constants and the external bindings.
#include "backends/xnnpack/aot/serialize_context.h"

#include <cstring>

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::ValueId;

Layout identity_layout(size_t rank) {
  Layout l(rank);
  for (size_t i = 0; i < rank; ++i) l[i] = static_cast<uint8_t>(i);
  return l;
}

Layout nhwc_layout() { return {0, 2, 3, 1}; }

std::vector<uint32_t> permute_dims(const std::vector<int64_t>& sizes, const Layout& layout) {
  std::vector<uint32_t> d(layout.size());
  for (size_t i = 0; i < layout.size(); ++i) d[i] = static_cast<uint32_t>(sizes[layout[i]]);
  return d;
}

std::vector<float> permute_floats(const std::vector<float>& data, const std::vector<int64_t>& sizes,
                                  const Layout& layout) {
  const size_t rank = sizes.size();
  std::vector<size_t> stride(rank, 1);
  for (size_t i = rank; i-- > 1;) stride[i - 1] = stride[i] * static_cast<size_t>(sizes[i]);
  std::vector<float> out(data.size());
  std::vector<size_t> idx(rank, 0);
  for (size_t o = 0; o < out.size(); ++o) {
    size_t src = 0;
    for (size_t i = 0; i < rank; ++i) src += idx[i] * stride[layout[i]];
    out[o] = data[src];
    for (size_t i = rank; i-- > 0;) {
      if (++idx[i] < static_cast<size_t>(sizes[layout[i]])) break;
      idx[i] = 0;
    }
  }
  return out;
}

SerializeContext::SerializeContext(const aot::Graph& graph) : graph_(graph), uses_(aot::compute_uses(graph)) {}

std::vector<int64_t> SerializeContext::sizes(ValueId v) const {
  std::vector<int64_t> s;
  for (const aot::SymInt& d : graph_.value(v).tensor.sizes) {
    s.push_back(d.is_static ? d.value : d.range.max.value_or(0));  // support checked the bound
  }
  return s;
}

size_t SerializeContext::num_dynamic_dims(ValueId v) const {
  size_t n = 0;
  for (const aot::SymInt& d : graph_.value(v).tensor.sizes) n += d.is_static ? 0 : 1;
  return n;
}

std::vector<uint32_t> SerializeContext::reshape_dims(ValueId v, const Layout& layout) const {
  std::vector<uint32_t> d = permute_dims(sizes(v), layout);
  const auto& s = graph_.value(v).tensor.sizes;
  for (size_t i = 0; i < layout.size(); ++i) {
    if (!s[layout[i]].is_static) d[i] = 0;  // XNNPACK infers it from the element count
  }
  return d;
}

bool SerializeContext::is_constant(ValueId v) const {
  const Dequantized* d = dequantized(v);
  return folded_.count(v) != 0 || graph_.value(v).tensor.constant != nullptr ||
         (d != nullptr && d->constant);
}

namespace {

// PyTorch's dequantization of a constant (quantized_decomposed, _decomposed.py): per tensor
// (f32(q) - zp) * scale in float32; per channel (q - zp[c]) in integers, then * scales[c]
// in the scales' dtype.
std::vector<float> dequantize_constant(const aot::Graph& g, const SerializeContext::Dequantized& d) {
  const aot::QuantParams& p = d.params;
  const auto& bytes = g.value(d.source).tensor.constant->bytes;
  std::vector<float> out(bytes.size());
  const bool f64 = p.scale_value != aot::kNoValue &&
                   g.value(p.scale_value).tensor.dtype == aot::ScalarType::Double;
  size_t inner = 1;
  const std::vector<aot::SymInt>& sizes = g.value(d.source).tensor.sizes;
  for (size_t i = size_t(p.axis) + 1; i < sizes.size(); ++i) inner *= size_t(sizes[i].value);
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t q = static_cast<int8_t>(bytes[i]);
    if (p.granularity != aot::QdqGranularity::PerChannel) {
      out[i] = (float(q) - float(p.zero_point)) * float(p.scale);
      continue;
    }
    const size_t c = p.scales.size() == 1 ? 0 : (i / inner) % p.scales.size();
    const int64_t diff = q - p.zero_points[c];
    out[i] = f64 ? float(double(diff) * p.scales[c]) : float(diff) * float(p.scales[c]);
  }
  return out;
}

}  // namespace

void SerializeContext::add_dequantized(ValueId f32, Dequantized d) { dequantized_[f32] = std::move(d); }

const SerializeContext::Dequantized* SerializeContext::dequantized(ValueId v) const {
  auto it = dequantized_.find(v);
  return it == dequantized_.end() ? nullptr : &it->second;
}

ValueType SerializeContext::activation_type(const aot::QuantParams& p) {
  return ValueType::per_tensor(fb::XNNDatatype::xnn_datatype_qint8, float(p.scale),
                               int32_t(p.zero_point));
}

aot::Result<uint32_t> SerializeContext::convert_dequantized(ValueId v, const Dequantized& d,
                                                            const Layout& layout) {
  EMBER_ASSIGN_OR_RETURN(uint32_t q, get(d.source, layout));
  uint32_t id = builder_.add_value(builder_.dims(q));
  builder_.unary(fb::XNodeUnion::XNNConvert, q, id);
  held_[v].emplace_back(layout, id);
  return id;
}

const std::vector<float>& SerializeContext::constant(ValueId v) const {
  auto f = folded_.find(v);
  if (f != folded_.end()) return f->second;
  auto c = param_cache_.find(v);
  if (c != param_cache_.end()) return c->second;
  if (const Dequantized* d = dequantized(v)) return param_cache_[v] = dequantize_constant(graph_, *d);
  const auto& bytes = graph_.value(v).tensor.constant->bytes;
  std::vector<float> data(bytes.size() / sizeof(float));
  if (!data.empty()) std::memcpy(data.data(), bytes.data(), data.size() * sizeof(float));
  return param_cache_[v] = std::move(data);
}

Layout SerializeContext::layout_of(ValueId v) const {
  auto it = held_.find(v);
  if (it == held_.end() || it->second.empty()) {
    // A dequantized activation is first converted in its int8 source's layout.
    const Dequantized* d = dequantized(v);
    if (d != nullptr && !d->constant) return layout_of(d->source);
    return identity_layout(rank(v));
  }
  return it->second.front().first;
}

aot::Result<uint32_t> SerializeContext::get(ValueId v, const Layout& layout) {
  auto& held = held_[v];
  for (const auto& [l, id] : held) {
    if (l == layout) return id;
  }
  const std::vector<int64_t> logical = sizes(v);
  if (is_constant(v)) {
    std::vector<float> data = permute_floats(constant(v), logical, layout);
    std::vector<uint8_t> bytes(data.size() * sizeof(float));
    if (!bytes.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
    uint32_t id = builder_.add_constant(permute_dims(logical, layout), std::move(bytes));
    held.emplace_back(layout, id);
    return id;
  }
  const Dequantized* dq = dequantized(v);
  if (held.empty() && dq != nullptr) {  // the first float use of a dequantized activation
    const Layout source_layout = layout_of(dq->source);
    EMBER_ASSIGN_OR_RETURN(uint32_t id, convert_dequantized(v, *dq, source_layout));
    if (source_layout == layout) return id;
  }
  if (held.empty()) {
    return aot::invalid_program("xnnpack lowering: value '" + graph_.value(v).name +
                                "' used before it is defined");
  }
  const auto [from, from_id] = held.front();
  // perm[i]: which physical dim of `from` becomes physical dim i of `layout`.
  std::vector<uint32_t> perm(layout.size());
  for (size_t i = 0; i < layout.size(); ++i) {
    for (size_t j = 0; j < from.size(); ++j) {
      if (from[j] == layout[i]) perm[i] = static_cast<uint32_t>(j);
    }
  }
  // Only size-1 dims move: the bytes are already in order, a reshape relabels them.
  std::vector<uint32_t> out_dims = permute_dims(logical, layout);
  std::vector<uint32_t> non_unit;
  for (uint32_t p : perm) {
    if (builder_.dims(from_id)[p] != 1) non_unit.push_back(p);
  }
  bool in_order = num_dynamic_dims(v) <= 1;  // a reshape infers at most one dynamic dim
  for (size_t i = 1; i < non_unit.size(); ++i) in_order = in_order && non_unit[i - 1] < non_unit[i];
  uint32_t id = builder_.add_value(out_dims, builder_.type(from_id));
  if (in_order) {
    builder_.reshape(reshape_dims(v, layout), from_id, id);
  } else {
    builder_.transpose(perm, from_id, id);
  }
  held_[v].emplace_back(layout, id);
  return id;
}

uint32_t SerializeContext::define(ValueId v, const Layout& layout) {
  uint32_t id = builder_.add_value(permute_dims(sizes(v), layout));
  held_[v].insert(held_[v].begin(), {layout, id});
  return id;
}

void SerializeContext::bind(ValueId v, uint32_t id, const Layout& layout) {
  held_[v].insert(held_[v].begin(), {layout, id});
}

int SerializeContext::producer(ValueId v) const {
  auto it = producers_.find(v);
  return it == producers_.end() ? -1 : it->second;
}

// The type of an external input: fp32, or for an int8 tensor (a quantize node's output
// before the delegate) the parameters of the dequantize node that reads it.
aot::Result<ValueType> external_type(const aot::Graph& g, ValueId v) {
  if (g.value(v).tensor.dtype != aot::ScalarType::Char) return ValueType{};
  for (const aot::Node& n : g.nodes()) {
    if (!aot::is_quantized_decomposed(n) || input_tensor(n, "input") != v) continue;
    aot::Result<aot::QuantParams> p = aot::read_qdq(g, n);
    if (p.ok() && p->kind == aot::QdqKind::Dequantize) return SerializeContext::activation_type(*p);
  }
  return aot::invalid_program("xnnpack lowering: int8 input '" + g.value(v).name +
                              "' is not read by a dequantize node");
}

// Symbolic sizes among the subgraph's inputs are not delegate arguments (to_backend_pass).
bool SerializeContext::is_tensor_input(ValueId v) const { return graph_.value(v).kind == aot::ValueKind::Tensor; }

Error SerializeContext::bind_inputs() {
  uint32_t ext = 0;
  for (const aot::Argument& in : graph_.inputs()) {
    ValueId v = in.value();
    if (v == aot::kNoValue || !is_tensor_input(v) || is_constant(v)) continue;
    // The emitter writes every runtime tensor contiguous (dim order 0..n-1).
    const Layout l = identity_layout(rank(v));
    EMBER_ASSIGN_OR_RETURN(ValueType type, external_type(graph_, v));
    uint32_t id = builder_.add_value(permute_dims(sizes(v), l), std::move(type));
    builder_.set_external(id, ext++, kFlagExternalInput);
    held_[v].emplace_back(l, id);
  }
  return Error::Ok;
}

Error SerializeContext::bind_outputs() {
  uint32_t ext = 0;
  for (const aot::Argument& in : graph_.inputs()) {
    ValueId v = in.value();
    if (v != aot::kNoValue && is_tensor_input(v) && !is_constant(v)) ++ext;
  }
  for (const aot::Argument& out : graph_.outputs()) {
    ValueId v = out.value();
    EMBER_ASSIGN_OR_RETURN(uint32_t id, get(v, identity_layout(rank(v))));
    if (builder_.is_constant(id) || builder_.is_external(id)) {
      uint32_t copy = builder_.add_value(builder_.dims(id), builder_.type(id));
      builder_.unary(fb::XNodeUnion::XNNCopy, id, copy);
      id = copy;
    }
    builder_.set_external(id, ext++, kFlagExternalOutput);
  }
  return Error::Ok;
}

Error SerializeContext::run() {
  EMBER_TRY(bind_inputs());
  const QuantPlan plan = plan_quantized_ops(graph_);
  // _safe_softmax patterns: lowered at their where node; the bool nodes emit nothing, and the
  // plain softmax neither when nothing else reads it.
  std::map<size_t, const SafeSoftmax*> safe_at;
  std::set<size_t> skip;
  const std::vector<SafeSoftmax> safe = find_safe_softmax(graph_);
  for (const SafeSoftmax& p : safe) {
    safe_at[p.where] = &p;
    skip.insert(p.bool_nodes.begin(), p.bool_nodes.end());
    if (num_uses(p.softmax_out) == 2 && !is_output(p.softmax_out)) skip.insert(p.softmax);
  }
  for (size_t i = 0; i < graph_.nodes().size(); ++i) {
    if (plan.absorbed.count(i) != 0 || skip.count(i) != 0) continue;
    if (safe_at.count(i) != 0) {
      EMBER_TRY(serialize_safe_softmax(*this, *safe_at[i]));
      continue;
    }
    auto q = plan.ops.find(i);
    EMBER_TRY(q != plan.ops.end() ? serialize_quantized_op(*this, graph_.nodes()[i], q->second)
                                  : serialize_node(*this, graph_.nodes()[i]));
  }
  return bind_outputs();
}

}  // namespace ember::backends::xnnpack
