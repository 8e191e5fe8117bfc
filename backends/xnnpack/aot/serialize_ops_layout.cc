// Layout ops: permute (relabels the layout, no data movement), reshape-like ops (view,
// reshape, squeeze, unsqueeze, flatten: a static reshape in the logical order), identity
// ops (clone, alias), cat (XNNPACK concatenates along the dim's physical position, chained
// by 5 for longer lists), slice/select/split (static slices) and
// constant_pad_nd. Ops on constants fold at export time.
#include <algorithm>
#include <utility>

#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::ValueId;

namespace {

bool is_one_of(const std::string& q, std::initializer_list<const char*> names) {
  for (const char* n : names) {
    if (q == n) return true;
  }
  return false;
}

ValueId first_tensor_input(const aot::Node& n) {
  for (const aot::NamedArgument& a : n.inputs) {
    if (a.arg.kind == aot::ArgKind::Tensor) return a.arg.values[0];
  }
  return aot::kNoValue;
}

Error serialize_permute(SerializeContext& ctx, const aot::Node& n) {
  ValueId in = input_tensor(n, "self"), out = output_tensor(n);
  const size_t r = ctx.rank(in);
  std::vector<int64_t> dims = input_ints(n, "dims", {});
  if (n.op.name == "transpose") {  // transpose.int(dim0, dim1): swap two dims
    dims.clear();
    for (size_t i = 0; i < r; ++i) dims.push_back(int64_t(i));
    int64_t a = int64_t(input_double(n, "dim0", 0)), b = int64_t(input_double(n, "dim1", 0));
    a = a < 0 ? a + int64_t(r) : a;
    b = b < 0 ? b + int64_t(r) : b;
    std::swap(dims[size_t(a)], dims[size_t(b)]);
  }
  Layout p(r), inv(r);
  for (size_t i = 0; i < r; ++i) {
    p[i] = static_cast<uint8_t>(dims[i] < 0 ? dims[i] + int64_t(r) : dims[i]);
    inv[p[i]] = static_cast<uint8_t>(i);
  }
  if (ctx.is_constant(in)) {
    ctx.set_constant(out, permute_floats(ctx.constant(in), ctx.sizes(in), p));
    return Error::Ok;
  }
  Layout a = ctx.layout_of(in), c(r);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, a));
  for (size_t j = 0; j < r; ++j) c[j] = inv[a[j]];
  ctx.bind(out, id, c);
  return Error::Ok;
}

Error serialize_reshape(SerializeContext& ctx, ValueId in, ValueId out) {
  if (ctx.is_constant(in)) {
    ctx.set_constant(out, ctx.constant(in));
    return Error::Ok;
  }
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, identity_layout(ctx.rank(in))));
  const Layout l = identity_layout(ctx.rank(out));
  uint32_t o = ctx.define(out, l);
  ctx.builder().reshape(ctx.reshape_dims(out, l), id, o);
  return Error::Ok;
}

Error serialize_identity(SerializeContext& ctx, ValueId in, ValueId out) {
  if (ctx.is_constant(in)) {
    ctx.set_constant(out, ctx.constant(in));
    return Error::Ok;
  }
  Layout a = ctx.layout_of(in);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, a));
  ctx.bind(out, id, a);
  return Error::Ok;
}

Error serialize_cat(SerializeContext& ctx, const aot::Node& n) {
  const aot::NamedArgument* t = n.find_input("tensors");
  ValueId out = output_tensor(n);
  const size_t r = ctx.rank(out);
  int64_t dim = static_cast<int64_t>(input_double(n, "dim", 0));
  if (dim < 0) dim += static_cast<int64_t>(r);
  std::vector<ValueId> ins = t->arg.values;
  if (ins.size() == 1) return serialize_identity(ctx, ins[0], out);
  Layout l = identity_layout(r);
  for (ValueId v : ins) {
    if (!ctx.is_constant(v)) {
      l = ctx.layout_of(v);
      break;
    }
  }
  std::vector<uint32_t> ids;
  for (ValueId v : ins) {
    EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(v, l));
    ids.push_back(id);
  }
  uint32_t axis = 0;
  for (size_t i = 0; i < r; ++i) {
    if (l[i] == dim) axis = static_cast<uint32_t>(i);
  }
  // More than 5 inputs: concatenate the first 5, then that result with the next 4, ...
  size_t next = 0;
  uint32_t acc = kXnnInvalidId;
  while (next < ids.size()) {
    std::vector<uint32_t> group;
    if (acc != kXnnInvalidId) group.push_back(acc);
    while (group.size() < 5 && next < ids.size()) group.push_back(ids[next++]);
    auto* c = new fb::_XNNCatT();
    uint32_t* slots[] = {&c->input1_id, &c->input2_id, &c->input3_id, &c->input4_id, &c->input5_id};
    std::vector<uint32_t> dims = ctx.builder().dims(group[0]);
    dims[axis] = 0;
    for (size_t k = 0; k < 5; ++k) *slots[k] = k < group.size() ? group[k] : kXnnInvalidId;
    for (uint32_t id : group) dims[axis] += ctx.builder().dims(id)[axis];
    c->axis = axis;
    c->output_id = next == ids.size() ? ctx.define(out, l) : ctx.builder().add_value(dims);
    acc = c->output_id;
    static constexpr fb::XNodeUnion kCat[] = {fb::XNodeUnion::XNNConcatenate2, fb::XNodeUnion::XNNConcatenate3,
                                              fb::XNodeUnion::XNNConcatenate4, fb::XNodeUnion::XNNConcatenate5};
    ctx.builder().add_node(kCat[group.size() - 2], c);
  }
  return Error::Ok;
}

Error serialize_pad(SerializeContext& ctx, const aot::Node& n) {
  ValueId in = input_tensor(n, "self"), out = output_tensor(n);
  const size_t r = ctx.rank(in);
  std::vector<int64_t> pad = input_ints(n, "pad", {});
  std::vector<uint32_t> pre_logical(r, 0), post_logical(r, 0);
  for (size_t k = 0; k + 1 < pad.size(); k += 2) {
    pre_logical[r - 1 - k / 2] = static_cast<uint32_t>(pad[k]);
    post_logical[r - 1 - k / 2] = static_cast<uint32_t>(pad[k + 1]);
  }
  Layout l = ctx.layout_of(in);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, l));
  auto* p = new fb::XNNStaticConstantPadT();
  for (size_t i = 0; i < r; ++i) {
    p->pre_paddings.push_back(pre_logical[l[i]]);
    p->post_paddings.push_back(post_logical[l[i]]);
  }
  p->padding_value = static_cast<float>(input_double(n, "value", 0.0));
  p->input_id = id;
  p->output_id = ctx.define(out, l);
  ctx.builder().add_node(fb::XNodeUnion::XNNStaticConstantPad, p);
  return Error::Ok;
}

// A static slice of `len` elements at `start` along logical `dim` of the value `id`, which holds
// logical sizes `is` in layout `l`; the output is `out_id`.
void add_static_slice(SerializeContext& ctx, uint32_t id, const Layout& l,
                      const std::vector<int64_t>& is, int64_t dim, int64_t start, int64_t len,
                      uint32_t out_id) {
  auto* sl = new fb::XNNStaticSliceT();
  sl->num_dims = uint32_t(l.size());
  for (size_t i = 0; i < l.size(); ++i) {
    const bool here = l[i] == dim;
    sl->offsets.push_back(here ? uint32_t(start) : 0u);
    sl->sizes.push_back(here ? uint32_t(len) : uint32_t(is[l[i]]));
  }
  sl->input_id = id;
  sl->output_id = out_id;
  ctx.builder().add_node(fb::XNodeUnion::XNNStaticSlice, sl);
}

int64_t norm_dim(const aot::Node& n, size_t rank) {
  int64_t dim = int64_t(input_double(n, "dim", 0));
  return dim < 0 ? dim + int64_t(rank) : dim;
}

// slice.Tensor (step 1) in the input's layout; select.int = a one-wide slice in the
// logical order, then a reshape dropping the dim. Both run as the delegate's static slice.
Error serialize_slice(SerializeContext& ctx, const aot::Node& n, bool select) {
  ValueId in = input_tensor(n, "self"), out = output_tensor(n);
  const size_t r = ctx.rank(in);
  const std::vector<int64_t> is = ctx.sizes(in);
  const int64_t dim = norm_dim(n, r);
  int64_t start, len;
  if (select) {
    start = int64_t(input_double(n, "index", 0));
    if (start < 0) start += is[size_t(dim)];
    len = 1;
  } else {
    start = int64_t(input_double(n, "start", 0));
    if (start < 0) start += is[size_t(dim)];
    start = std::min(std::max<int64_t>(start, 0), is[size_t(dim)]);
    len = ctx.sizes(out)[size_t(dim)];
  }
  const Layout l = select ? identity_layout(r) : ctx.layout_of(in);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, l));
  if (!select) {
    add_static_slice(ctx, id, l, is, dim, start, len, ctx.define(out, l));
    return Error::Ok;
  }
  std::vector<int64_t> one = is;
  one[size_t(dim)] = 1;
  const uint32_t sliced = ctx.builder().add_value(permute_dims(one, l));
  add_static_slice(ctx, id, l, is, dim, start, len, sliced);
  const Layout lo = identity_layout(ctx.rank(out));
  uint32_t o = ctx.define(out, lo);
  ctx.builder().reshape(permute_dims(ctx.sizes(out), lo), sliced, o);
  return Error::Ok;
}

// split.Tensor / split_with_sizes: one static slice per output, in the input's layout
// (a channel split of an NHWC value stays NHWC). Unused outputs get no slice.
Error serialize_split(SerializeContext& ctx, const aot::Node& n) {
  ValueId in = input_tensor(n, "self");
  const size_t r = ctx.rank(in);
  const std::vector<int64_t> is = ctx.sizes(in);
  const int64_t dim = norm_dim(n, r);
  const std::vector<int64_t> lens = split_lengths(n, is[size_t(dim)]);
  const Layout l = ctx.layout_of(in);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, l));
  const std::vector<ValueId>& outs = n.outputs[0].values;
  int64_t start = 0;
  for (size_t k = 0; k < outs.size() && k < lens.size(); ++k) {
    if (outs[k] != aot::kNoValue) {
      add_static_slice(ctx, id, l, is, dim, start, lens[k], ctx.define(outs[k], l));
    }
    start += lens[k];
  }
  return Error::Ok;
}

}  // namespace

Error serialize_layout_op(SerializeContext& ctx, const aot::Node& n) {
  const std::string q = n.op.qualified();
  if (q == "aten::permute.default" || q == "aten::permute_copy.default" || q == "aten::transpose.int") {
    return serialize_permute(ctx, n);
  }
  if (is_one_of(q, {"aten::view.default", "aten::_unsafe_view.default", "aten::reshape.default",
                    "aten::view_copy.default", "aten::squeeze.dims", "aten::squeeze.dim",
                    "aten::squeeze.default", "aten::unsqueeze.default", "aten::flatten.using_ints",
                    "aten::squeeze_copy.dims", "aten::unsqueeze_copy.default"})) {
    return serialize_reshape(ctx, first_tensor_input(n), output_tensor(n));
  }
  if (is_one_of(q, {"aten::clone.default", "aten::alias.default", "aten::alias_copy.default",
                    "aten::detach.default", "aten::dropout.default"})) {
    return serialize_identity(ctx, first_tensor_input(n), output_tensor(n));
  }
  if (q == "aten::cat.default") return serialize_cat(ctx, n);
  if (q == "aten::select.int" || q == "aten::select_copy.int") return serialize_slice(ctx, n, true);
  if (q == "aten::slice.Tensor" || q == "aten::slice_copy.Tensor") return serialize_slice(ctx, n, false);
  if (q == "aten::split.Tensor" || q == "aten::split_with_sizes.default") {
    return serialize_split(ctx, n);
  }
  if (q == "aten::constant_pad_nd.default") return serialize_pad(ctx, n);
  return aot::not_found(q);
}

}  // namespace ember::backends::xnnpack
