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
  for (const aot::SymInt& d : graph_.value(v).tensor.sizes) s.push_back(d.value);
  return s;
}

bool SerializeContext::is_constant(ValueId v) const {
  return folded_.count(v) != 0 || graph_.value(v).tensor.constant != nullptr;
}

const std::vector<float>& SerializeContext::constant(ValueId v) const {
  auto f = folded_.find(v);
  if (f != folded_.end()) return f->second;
  auto c = param_cache_.find(v);
  if (c != param_cache_.end()) return c->second;
  const auto& bytes = graph_.value(v).tensor.constant->bytes;
  std::vector<float> data(bytes.size() / sizeof(float));
  if (!data.empty()) std::memcpy(data.data(), bytes.data(), data.size() * sizeof(float));
  return param_cache_[v] = std::move(data);
}

Layout SerializeContext::layout_of(ValueId v) const {
  auto it = held_.find(v);
  if (it == held_.end() || it->second.empty()) return identity_layout(rank(v));
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
  bool in_order = true;
  for (size_t i = 1; i < non_unit.size(); ++i) in_order = in_order && non_unit[i - 1] < non_unit[i];
  uint32_t id = builder_.add_value(out_dims);
  if (in_order) {
    builder_.reshape(out_dims, from_id, id);
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

Error SerializeContext::bind_inputs() {
  uint32_t ext = 0;
  for (const aot::Argument& in : graph_.inputs()) {
    ValueId v = in.value();
    if (v == aot::kNoValue || is_constant(v)) continue;
    // The emitter writes every runtime tensor contiguous (dim order 0..n-1).
    const Layout l = identity_layout(rank(v));
    uint32_t id = builder_.add_value(permute_dims(sizes(v), l));
    builder_.set_external(id, ext++, kFlagExternalInput);
    held_[v].emplace_back(l, id);
  }
  return Error::Ok;
}

Error SerializeContext::bind_outputs() {
  uint32_t ext = 0;
  for (const aot::Argument& in : graph_.inputs()) {
    ValueId v = in.value();
    if (v != aot::kNoValue && !is_constant(v)) ++ext;
  }
  for (const aot::Argument& out : graph_.outputs()) {
    ValueId v = out.value();
    EMBER_ASSIGN_OR_RETURN(uint32_t id, get(v, identity_layout(rank(v))));
    if (builder_.is_constant(id) || builder_.is_external(id)) {
      uint32_t copy = builder_.add_value(builder_.dims(id));
      builder_.unary(fb::XNodeUnion::XNNCopy, id, copy);
      id = copy;
    }
    builder_.set_external(id, ext++, kFlagExternalOutput);
  }
  return Error::Ok;
}

Error SerializeContext::run() {
  EMBER_TRY(bind_inputs());
  for (const aot::Node& n : graph_.nodes()) EMBER_TRY(serialize_node(*this, n));
  return bind_outputs();
}

}  // namespace ember::backends::xnnpack
