// Ops this XNNPACK has no operator for, built exactly from several of its operators
// (README.md, "Decomposed ops"):
//   native_layer_norm  mean and variance by global average pooling over a [rows, D, 1, 1]
//                      view (N = rows, H = D, W = C = 1), (x - mean) / sqrt(var + eps),
//                      then the constant weight and bias;
//   expand             a multiply by ones broadcast to the output (x * 1 is x, bit for bit);
//                      of a constant, the broadcast data at export time;
//   upsample_nearest2d by integer factors: [N,H,1,W,1,C] * ones[1,1,kh,1,kw,1], reshaped;
//   upsample_bilinear2d XNNStaticResizeBilinear2D in NHWC (half-pixel centres, or
//                      align_corners);
//   pow(x, 2 | 3)      square, and square times x (ATen's own arithmetic for these exponents).
#include <cstring>

#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::ValueId;

namespace {

uint32_t float_constant(SerializeContext& ctx, std::vector<uint32_t> dims, const std::vector<float>& data) {
  std::vector<uint8_t> bytes(data.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
  return ctx.builder().add_constant(std::move(dims), std::move(bytes));
}

uint32_t ones(SerializeContext& ctx, std::vector<uint32_t> dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return float_constant(ctx, std::move(dims), std::vector<float>(n, 1.f));
}

size_t product(const std::vector<int64_t>& s, size_t from, size_t to) {
  size_t p = 1;
  for (size_t i = from; i < to; ++i) p *= size_t(s[i]);
  return p;
}

Error serialize_layer_norm(SerializeContext& ctx, const aot::Node& n) {
  ValueId x = input_tensor(n, "input"), out = output_tensor(n);
  ValueId w = input_tensor(n, "weight"), b = input_tensor(n, "bias");
  const std::vector<int64_t> s = ctx.sizes(x);
  const size_t k = input_ints(n, "normalized_shape", {}).size();
  const uint32_t d = uint32_t(product(s, s.size() - k, s.size()));
  const uint32_t rows = uint32_t(product(s, 0, s.size() - k));
  XnnpackGraphBuilder& g = ctx.builder();
  EMBER_ASSIGN_OR_RETURN(uint32_t xi, ctx.get(x, identity_layout(s.size())));
  const std::vector<uint32_t> full = {rows, d, 1, 1}, row = {rows, 1, 1, 1};
  uint32_t x4 = g.add_value(full);
  g.reshape({ctx.num_dynamic_dims(x) == 0 ? rows : 0u, d, 1, 1}, xi, x4);
  uint32_t mean = g.add_value(row);
  g.unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, x4, mean);
  uint32_t centred = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNSubtract, x4, mean, centred);
  uint32_t sq = g.add_value(full);
  g.unary(fb::XNodeUnion::XNNSquare, centred, sq);
  uint32_t var = g.add_value(row);
  g.unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, sq, var);
  uint32_t var_eps = g.add_value(row);
  g.binary(fb::XNodeUnion::XNNAdd, var, float_constant(ctx, {1, 1, 1, 1}, {float(input_double(n, "eps", 1e-5))}),
           var_eps);
  uint32_t stddev = g.add_value(row);
  g.unary(fb::XNodeUnion::XNNSquareRoot, var_eps, stddev);
  uint32_t y = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNDiv, centred, stddev, y);
  if (w != aot::kNoValue) {
    uint32_t yw = g.add_value(full);
    g.binary(fb::XNodeUnion::XNNMultiply, y, float_constant(ctx, {1, d, 1, 1}, ctx.constant(w)), yw);
    y = yw;
  }
  if (b != aot::kNoValue) {
    uint32_t yb = g.add_value(full);
    g.binary(fb::XNodeUnion::XNNAdd, y, float_constant(ctx, {1, d, 1, 1}, ctx.constant(b)), yb);
    y = yb;
  }
  const Layout l = identity_layout(s.size());
  g.reshape(ctx.reshape_dims(out, l), y, ctx.define(out, l));
  return Error::Ok;
}

// The constant `data` of logical sizes `in` broadcast to `out` (same rank after leading 1s).
std::vector<float> broadcast_floats(const std::vector<float>& data, std::vector<int64_t> in,
                                    const std::vector<int64_t>& out) {
  in.insert(in.begin(), out.size() - in.size(), 1);
  std::vector<float> res(product(out, 0, out.size()));
  std::vector<size_t> idx(out.size(), 0);
  for (size_t o = 0; o < res.size(); ++o) {
    size_t src = 0;
    for (size_t i = 0; i < out.size(); ++i) src = src * size_t(in[i]) + (in[i] == 1 ? 0 : idx[i]);
    res[o] = data[src];
    for (size_t i = out.size(); i-- > 0;) {
      if (++idx[i] < size_t(out[i])) break;
      idx[i] = 0;
    }
  }
  return res;
}

Error serialize_expand(SerializeContext& ctx, ValueId in, ValueId out) {
  std::vector<int64_t> is = ctx.sizes(in);
  const std::vector<int64_t> os = ctx.sizes(out);
  if (ctx.is_constant(in)) {
    ctx.set_constant(out, broadcast_floats(ctx.constant(in), is, os));
    return Error::Ok;
  }
  bool same = is == os;
  if (same) {  // an identity: the input's value in its layout
    Layout a = ctx.layout_of(in);
    EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, a));
    ctx.bind(out, id, a);
    return Error::Ok;
  }
  const Layout l = identity_layout(os.size());
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, identity_layout(is.size())));
  is.insert(is.begin(), os.size() - is.size(), 1);
  if (is.size() != ctx.rank(in)) {
    uint32_t r = ctx.builder().add_value(permute_dims(is, l));
    ctx.builder().reshape(permute_dims(is, l), id, r);
    id = r;
  }
  std::vector<uint32_t> bdims(os.size());
  for (size_t i = 0; i < os.size(); ++i) bdims[i] = is[i] == os[i] ? 1u : uint32_t(os[i]);
  ctx.builder().binary(fb::XNodeUnion::XNNMultiply, id, ones(ctx, bdims), ctx.define(out, l));
  return Error::Ok;
}

Error serialize_upsample_nearest(SerializeContext& ctx, ValueId in, ValueId out) {
  const std::vector<int64_t> is = ctx.sizes(in), os = ctx.sizes(out);
  const uint32_t n = uint32_t(is[0]), c = uint32_t(is[1]), h = uint32_t(is[2]), w = uint32_t(is[3]);
  const uint32_t kh = uint32_t(os[2] / is[2]), kw = uint32_t(os[3] / is[3]);
  XnnpackGraphBuilder& g = ctx.builder();
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, nhwc_layout()));
  const std::vector<uint32_t> spread = {n, h, 1, w, 1, c}, wide = {n, h, kh, w, kw, c};
  uint32_t r = g.add_value(spread);
  g.reshape(spread, id, r);
  uint32_t m = g.add_value(wide);
  g.binary(fb::XNodeUnion::XNNMultiply, r, ones(ctx, {1, 1, kh, 1, kw, 1}), m);
  g.reshape(permute_dims(os, nhwc_layout()), m, ctx.define(out, nhwc_layout()));
  return Error::Ok;
}

}  // namespace

// `input` of the .vec overloads, `self` of the .default ones.
ValueId upsample_input(const aot::Node& n) {
  ValueId v = input_tensor(n, "input");
  return v != aot::kNoValue ? v : input_tensor(n, "self");
}

namespace {

constexpr uint32_t kAlignCorners = 0x8;  // XNN_FLAG_ALIGN_CORNERS

Error serialize_upsample_bilinear(SerializeContext& ctx, const aot::Node& n) {
  ValueId in = upsample_input(n), out = output_tensor(n);
  const std::vector<int64_t> os = ctx.sizes(out);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, nhwc_layout()));
  auto* r = new fb::XNNStaticResizeBilinear2DT();
  r->new_height = uint32_t(os[2]);
  r->new_width = uint32_t(os[3]);
  r->flags = input_bool(n, "align_corners", false) ? kAlignCorners : 0u;
  r->input_id = id;
  r->output_id = ctx.define(out, nhwc_layout());
  ctx.builder().add_node(fb::XNodeUnion::XNNStaticResizeBilinear2D, r);
  return Error::Ok;
}

constexpr float kFloatMax = 3.40282347e38f;

}  // namespace

// From %x (held with `dim` innermost, as softmax wants it), all in float:
//   e = clamp(1 - (max(x, -FLT_MAX) - x), 0, 1)     1 where x > -inf, 0 where x = -inf
//   a = clamp(mean_row(e) * 2^30, 0, 1)             1 when the row has a score above -inf
//   x' = max(x, -1 / (1 - a))                       x itself, or -1 for rows of -inf only
//   y = softmax(x') * a                             softmax(x), or 0 for those rows
// exact for every non-NaN input (max(x, -inf) = x, x * 1 = x); a NaN score makes PyTorch's row
// NaN, which XNNPACK's max may not propagate.
Error serialize_safe_softmax(SerializeContext& ctx, const SafeSoftmax& p) {
  const size_t r = ctx.rank(p.input);
  Layout l;
  for (uint8_t d : ctx.layout_of(p.input)) {
    if (d != p.dim) l.push_back(d);
  }
  l.push_back(static_cast<uint8_t>(p.dim));
  EMBER_ASSIGN_OR_RETURN(uint32_t x, ctx.get(p.input, l));
  XnnpackGraphBuilder& g = ctx.builder();
  const std::vector<int64_t> s = ctx.sizes(p.input);
  const std::vector<uint32_t> phys = permute_dims(s, l);
  const uint32_t n = uint32_t(s[size_t(p.dim)]), rows = uint32_t(product(s, 0, r) / n);
  const std::vector<uint32_t> full = {rows, n, 1, 1}, row = {rows, 1, 1, 1}, one4 = {1, 1, 1, 1};
  auto scalar = [&](float v) { return float_constant(ctx, one4, {v}); };
  uint32_t x4 = g.add_value(full);
  g.reshape(full, x, x4);
  uint32_t c = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNMaximum, x4, scalar(-kFloatMax), c);
  uint32_t d = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNSubtract, c, x4, d);
  uint32_t e = g.add_value(full);
  g.set_output_min_max(g.binary(fb::XNodeUnion::XNNSubtract, scalar(1.f), d, e), 0.f, 1.f);
  uint32_t mean = g.add_value(row);
  g.unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, e, mean);
  uint32_t a = g.add_value(row);
  g.set_output_min_max(g.binary(fb::XNodeUnion::XNNMultiply, mean, scalar(1073741824.f), a), 0.f, 1.f);
  uint32_t om = g.add_value(row);
  g.binary(fb::XNodeUnion::XNNSubtract, scalar(1.f), a, om);
  uint32_t lim = g.add_value(row);
  g.binary(fb::XNodeUnion::XNNDiv, scalar(-1.f), om, lim);
  uint32_t xm = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNMaximum, x4, lim, xm);
  uint32_t xr = g.add_value(phys);
  g.reshape(phys, xm, xr);
  uint32_t y = g.add_value(phys);
  g.unary(fb::XNodeUnion::XNNSoftmax, xr, y);
  uint32_t y4 = g.add_value(full);
  g.reshape(full, y, y4);
  uint32_t o = g.add_value(full);
  g.binary(fb::XNodeUnion::XNNMultiply, y4, a, o);
  g.reshape(phys, o, ctx.define(p.output, l));
  return Error::Ok;
}

// pow(x, 2) = x * x (XNNSquare); pow(x, 3) = (x * x) * x, which is how ATen computes these two
// exponents, so the bits are PyTorch's (GPT-2's tanh GELU has pow(x, 3)).
Error serialize_pow(SerializeContext& ctx, const aot::Node& n) {
  ValueId x = input_tensor(n, "self"), out = output_tensor(n);
  const std::vector<int64_t> s = ctx.sizes(x);
  const Layout l = identity_layout(s.size());
  XnnpackGraphBuilder& g = ctx.builder();
  EMBER_ASSIGN_OR_RETURN(uint32_t xi, ctx.get(x, l));
  if (input_double(n, "exponent", 0) == 2.0) {
    g.unary(fb::XNodeUnion::XNNSquare, xi, ctx.define(out, l));
    return Error::Ok;
  }
  uint32_t sq = g.add_value(permute_dims(s, l));
  g.unary(fb::XNodeUnion::XNNSquare, xi, sq);
  g.binary(fb::XNodeUnion::XNNMultiply, sq, xi, ctx.define(out, l));
  return Error::Ok;
}

Error serialize_decomposed_op(SerializeContext& ctx, const aot::Node& n) {
  const std::string q = n.op.qualified();
  if (q == "aten::pow.Tensor_Scalar") return serialize_pow(ctx, n);
  if (q == "aten::native_layer_norm.default") return serialize_layer_norm(ctx, n);
  if (q == "aten::expand.default" || q == "aten::expand_copy.default") {
    return serialize_expand(ctx, input_tensor(n, "self"), output_tensor(n));
  }
  if (q == "aten::upsample_nearest2d.vec" || q == "aten::upsample_nearest2d.default") {
    return serialize_upsample_nearest(ctx, upsample_input(n), output_tensor(n));
  }
  if (q == "aten::upsample_bilinear2d.vec" || q == "aten::upsample_bilinear2d.default") {
    return serialize_upsample_bilinear(ctx, n);
  }
  return aot::not_found(q);
}

}  // namespace ember::backends::xnnpack
