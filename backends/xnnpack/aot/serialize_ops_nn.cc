// Neural-network ops: convolution (OHWI filter, NHWC activations), batch norm (folded into
// the preceding convolution when that is its only use, else a multiply-add in any layout),
// addmm/mm/linear (fully connected, or batch matmul + add for a non-constant weight), bmm,
// max/avg pooling (ceil_mode via extra bottom/right padding) and mean over H, W / adaptive
// average pooling to 1x1 (global average pooling). A depthwise convolution past 25 taps is
// four convolutions over its kernel's quadrants plus adds (XNNPACK 2024-11's limit).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::ValueId;

namespace {

std::vector<uint8_t> to_bytes(const std::vector<float>& f) {
  std::vector<uint8_t> b(f.size() * sizeof(float));
  if (!b.empty()) std::memcpy(b.data(), f.data(), b.size());
  return b;
}

int64_t pick(const std::vector<int64_t>& v, size_t i, int64_t dflt) {
  if (v.empty()) return dflt;
  return v.size() > i ? v[i] : v[0];
}

// XNNPACK 2024-11's f32 depthwise kernels take at most 25 taps (3p, 4p, 9p and 25p unipass;
// its multipass kernels are compiled out by default): a larger depthwise convolution (ConvNeXt's
// 7x7) falls back to a grouped GEMM with one output channel per group, which used 56% of
// ConvNeXt's time. Such a convolution is written as four depthwise convolutions over the
// quadrants of its kernel, rows [0, sh] / [sh, kh) and columns [0, sw] / [sw, kw) (the shared
// row and column zeroed in the second halves), each with padding that keeps the output size,
// added up: out(y) = sum_i w[i] x(s y + i - p), and the piece of rows [r0, r1] is a
// convolution of those rows with top padding p - r0 and bottom padding p_bottom - (kh-1-r1).
struct Quadrants {
  uint32_t sh = 0, sw = 0;  // the split row and column
};

// False when the convolution is not a depthwise one past 25 taps that splits this way.
bool depthwise_quadrants(const fb::_XNNNodeConvT& c, Quadrants* q) {
  constexpr uint32_t kMaxTaps = 25;
  const uint32_t kh = c.kernel_height, kw = c.kernel_width;
  if (c.groups < 2 || c.group_input_channels != 1 || c.group_output_channels != 1 ||
      kh * kw <= kMaxTaps || c.dilation_height != 1 || c.dilation_width != 1) {
    return false;
  }
  // rows: kh-1-p_bottom <= sh <= p_top (both pieces keep non-negative padding)
  q->sh = std::min(c.padding_top, kh - 1);
  q->sw = std::min(c.padding_left, kw - 1);
  if (q->sh + c.padding_bottom < kh - 1 || q->sw + c.padding_right < kw - 1) return false;
  const uint32_t rows[2] = {q->sh + 1, kh - q->sh}, cols[2] = {q->sw + 1, kw - q->sw};
  for (uint32_t r : rows) {
    for (uint32_t k : cols) {
      if (r * k > kMaxTaps) return false;
    }
  }
  return true;
}

Error serialize_depthwise_quadrants(SerializeContext& ctx, const fb::_XNNNodeConvT& whole,
                                    const Quadrants& q, uint32_t in, const std::vector<float>& w,
                                    const std::vector<float>& bias, ValueId out) {
  const uint32_t ch = whole.groups, kh = whole.kernel_height, kw = whole.kernel_width;
  const std::vector<uint32_t> out_dims = permute_dims(ctx.sizes(out), nhwc_layout());
  uint32_t sum = 0;
  size_t last = 0;
  for (int piece = 0; piece < 4; ++piece) {
    const bool lower = piece >= 2, right = piece % 2 == 1;
    const uint32_t r0 = lower ? q.sh : 0, r1 = lower ? kh - 1 : q.sh;
    const uint32_t c0 = right ? q.sw : 0, c1 = right ? kw - 1 : q.sw;
    const uint32_t ph = r1 - r0 + 1, pw = c1 - c0 + 1;
    std::vector<float> f(size_t(ch) * ph * pw, 0.f);  // OHWI [C, ph, pw, 1]
    for (uint32_t c = 0; c < ch; ++c) {
      for (uint32_t i = 0; i < ph; ++i) {
        for (uint32_t j = 0; j < pw; ++j) {
          const uint32_t r = r0 + i, k = c0 + j;
          if ((lower && r == q.sh) || (right && k == q.sw)) continue;  // in the first half
          f[(size_t(c) * ph + i) * pw + j] = w[(size_t(c) * kh + r) * kw + k];
        }
      }
    }
    auto* c = new fb::_XNNNodeConvT(whole);
    c->kernel_height = ph;
    c->kernel_width = pw;
    c->padding_top = whole.padding_top - r0;
    c->padding_bottom = whole.padding_bottom - (kh - 1 - r1);
    c->padding_left = whole.padding_left - c0;
    c->padding_right = whole.padding_right - (kw - 1 - c1);
    c->input1_id = in;
    c->filter_id = ctx.builder().add_constant({ch, ph, pw, 1}, to_bytes(f));
    c->bias_id = ctx.builder().add_constant(
        {ch}, to_bytes(piece == 0 ? bias : std::vector<float>(ch, 0.f)));
    c->output_id = ctx.builder().add_value(out_dims);
    const uint32_t piece_out = c->output_id;
    ctx.builder().add_node(fb::XNodeUnion::XNNConv2d, c);
    if (piece == 0) {
      sum = piece_out;
      continue;
    }
    const uint32_t next =
        piece == 3 ? ctx.define(out, nhwc_layout()) : ctx.builder().add_value(out_dims);
    last = ctx.builder().binary(fb::XNodeUnion::XNNAdd, sum, piece_out, next);
    sum = next;
  }
  ctx.set_producer(out, last);  // a following ReLU clamps the last add
  return Error::Ok;
}

Error serialize_conv(SerializeContext& ctx, const aot::Node& n) {
  ValueId x = input_tensor(n, "input"), w = input_tensor(n, "weight"), b = input_tensor(n, "bias");
  ValueId out = output_tensor(n);
  const std::vector<int64_t> ws = ctx.sizes(w);
  EMBER_ASSIGN_OR_RETURN(uint32_t in, ctx.get(x, nhwc_layout()));
  {
    std::unique_ptr<fb::_XNNNodeConvT> whole(conv_node_params(n, ws));
    Quadrants q;
    if (depthwise_quadrants(*whole, &q)) {
      const std::vector<float> bias =
          b != aot::kNoValue ? ctx.constant(b) : std::vector<float>(size_t(ws[0]), 0.f);
      return serialize_depthwise_quadrants(ctx, *whole, q, in, ctx.constant(w), bias, out);
    }
  }
  uint32_t filter = ctx.builder().add_constant(permute_dims(ws, nhwc_layout()),
                                               to_bytes(permute_floats(ctx.constant(w), ws, nhwc_layout())));
  std::vector<float> bias = b != aot::kNoValue ? ctx.constant(b) : std::vector<float>(size_t(ws[0]), 0.f);
  uint32_t bias_id = ctx.builder().add_constant({uint32_t(ws[0])}, to_bytes(bias));
  fb::_XNNNodeConvT* c = conv_node_params(n, ws);
  c->input1_id = in;
  c->filter_id = filter;
  c->bias_id = bias_id;
  c->output_id = ctx.define(out, nhwc_layout());
  ctx.set_producer(out, ctx.builder().add_node(fb::XNodeUnion::XNNConv2d, c));
  ctx.conv_weights[out] = {filter, bias_id};
  return Error::Ok;
}

Error serialize_batch_norm(SerializeContext& ctx, const aot::Node& n) {
  ValueId x = input_tensor(n, "input"), out = output_tensor(n);
  const std::vector<float>& mean = ctx.constant(input_tensor(n, "running_mean"));
  const std::vector<float>& var = ctx.constant(input_tensor(n, "running_var"));
  const double eps = input_double(n, "eps", 1e-5);
  const size_t c = mean.size();
  ValueId wv = input_tensor(n, "weight"), bv = input_tensor(n, "bias");
  std::vector<float> scale(c), shift(c);
  for (size_t i = 0; i < c; ++i) {
    const double w = wv != aot::kNoValue ? ctx.constant(wv)[i] : 1.0;
    const double b = bv != aot::kNoValue ? ctx.constant(bv)[i] : 0.0;
    const double s = w / std::sqrt(double(var[i]) + eps);
    scale[i] = float(s);
    shift[i] = float(b - double(mean[i]) * s);
  }
  const int p = ctx.producer(x);
  auto conv = ctx.conv_weights.find(x);
  if (p >= 0 && conv != ctx.conv_weights.end() && !ctx.is_output(x) && ctx.num_uses(x) == 1 &&
      !ctx.builder().node(size_t(p)).output_min_max) {
    auto& fw = ctx.builder().constant_bytes(conv->second.first);
    auto& fbias = ctx.builder().constant_bytes(conv->second.second);
    float* f = reinterpret_cast<float*>(fw.data());
    float* bias = reinterpret_cast<float*>(fbias.data());
    const size_t per = fw.size() / sizeof(float) / c;  // OHWI: one contiguous block per O
    for (size_t o = 0; o < c; ++o) {
      for (size_t k = 0; k < per; ++k) f[o * per + k] *= scale[o];
      bias[o] = bias[o] * scale[o] + shift[o];
    }
    EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(x, nhwc_layout()));
    ctx.bind(out, id, nhwc_layout());
    ctx.set_producer(out, size_t(p));
    ctx.conv_weights[out] = conv->second;
    return Error::Ok;
  }
  const size_t r = ctx.rank(x);
  Layout l = ctx.layout_of(x);
  std::vector<int64_t> cs(r, 1);
  cs[1] = int64_t(c);
  EMBER_ASSIGN_OR_RETURN(uint32_t in, ctx.get(x, l));
  uint32_t sc = ctx.builder().add_constant(permute_dims(cs, l), to_bytes(scale));
  uint32_t sh = ctx.builder().add_constant(permute_dims(cs, l), to_bytes(shift));
  uint32_t tmp = ctx.builder().add_value(permute_dims(ctx.sizes(x), l));
  ctx.builder().binary(fb::XNodeUnion::XNNMultiply, in, sc, tmp);
  uint32_t o = ctx.define(out, l);
  ctx.set_producer(out, ctx.builder().binary(fb::XNodeUnion::XNNAdd, tmp, sh, o));
  return Error::Ok;
}

// Whether w [n][k] has exactly one +-1 per row and zeros elsewhere: a signed permutation or
// selection (rotate_half as a product, RotateHalfAsLinearPass). It stays float in the dynamically
// quantized recipes: its product is exact in fp32, while quantizing the activations to int8 per
// row would only add error, and 4-bit blocks of it made non-finite outputs (135M shape, D = 64).
bool signed_selection(const std::vector<float>& w, int64_t n, uint32_t k) {
  for (int64_t r = 0; r < n; ++r) {
    int ones = 0;
    for (uint32_t c = 0; c < k; ++c) {
      const float v = w[size_t(r) * k + c];
      if (v == 1.f || v == -1.f) {
        ++ones;
      } else if (v != 0.f) {
        return false;
      }
    }
    if (ones != 1) return false;
  }
  return n > 0;
}

// out = a @ w^T + bias, with w given as [N, K] (transposed = false) or [K, N].
Error serialize_matmul(SerializeContext& ctx, ValueId a, ValueId w, bool w_is_kn, ValueId bias, ValueId out) {
  uint32_t in;
  EMBER_ASSIGN_OR_RETURN(in, ctx.get(a, identity_layout(ctx.rank(a))));
  const Layout lo = identity_layout(ctx.rank(out));
  const std::vector<int64_t> ws = ctx.sizes(w);
  const int64_t nout = w_is_kn ? ws[1] : ws[0];
  if (!ctx.is_constant(w)) {  // batch matmul, then the bias
    EMBER_ASSIGN_OR_RETURN(uint32_t wid, ctx.get(w, identity_layout(ctx.rank(w))));
    uint32_t mm = bias == aot::kNoValue ? ctx.define(out, lo) : ctx.builder().add_value(permute_dims(ctx.sizes(out), lo));
    ctx.builder().binary(fb::XNodeUnion::XNNBatchMatrixMultiply, in, wid, mm);
    if (bias == aot::kNoValue) return Error::Ok;
    EMBER_ASSIGN_OR_RETURN(uint32_t bid, ctx.get(bias, identity_layout(ctx.rank(bias))));
    ctx.set_producer(out, ctx.builder().binary(fb::XNodeUnion::XNNAdd, mm, bid, ctx.define(out, lo)));
    return Error::Ok;
  }
  std::vector<float> filter = w_is_kn ? permute_floats(ctx.constant(w), ws, {1, 0}) : ctx.constant(w);
  const uint32_t nin = uint32_t(ws[w_is_kn ? 0 : 1]);
  uint32_t fid;
  const SerializeContext::DynamicWeights& dq = ctx.dynamic_weights();
  if (dq.enabled && (dq.scheme != WeightScheme::Int4Blockwise || nin % dq.block_size == 0) &&
      !signed_selection(filter, nout, nin)) {
    // fp32 input -> qdint8 per row (XNNPACK quantizes at run time) -> FC with int weights.
    EMBER_ASSIGN_OR_RETURN(QuantizedWeight q, quantize_weight(filter.data(), uint32_t(nout), nin,
                                                              dq.scheme, dq.block_size));
    const ValueType wt = q.block_size == 0 ? ValueType::per_channel(q.datatype, q.scales, 0)
                                           : ValueType::per_channel_group(q.datatype, q.scales, 0,
                                                                          int32_t(q.block_size));
    fid = ctx.builder().add_constant({uint32_t(nout), nin}, std::move(q.bytes), wt);
    const uint32_t qin = ctx.builder().add_value(
        permute_dims(ctx.sizes(a), identity_layout(ctx.rank(a))), ValueType::per_token_dynamic(1));
    ctx.builder().unary(fb::XNodeUnion::XNNConvert, in, qin);
    in = qin;
  } else {
    fid = ctx.builder().add_constant({uint32_t(nout), nin}, to_bytes(filter));
  }
  // A computed bias (Swin V2's qkv bias is built per call) is added after a bias-free FC.
  const bool computed_bias = bias != aot::kNoValue && !ctx.is_constant(bias);
  std::vector<float> b = bias != aot::kNoValue && !computed_bias ? ctx.constant(bias)
                                                                 : std::vector<float>(size_t(nout), 0.f);
  uint32_t bid = ctx.builder().add_constant({uint32_t(nout)}, to_bytes(b));
  auto* fc = new fb::XNNFullyConnectedT();
  fc->input1_id = in;
  fc->filter_id = fid;
  fc->bias_id = bid;
  fc->output_id = computed_bias ? ctx.builder().add_value(permute_dims(ctx.sizes(out), lo)) : ctx.define(out, lo);
  const uint32_t fc_out = fc->output_id;
  size_t node = ctx.builder().add_node(fb::XNodeUnion::XNNFullyConnected, fc);
  if (computed_bias) {
    EMBER_ASSIGN_OR_RETURN(uint32_t cb, ctx.get(bias, identity_layout(ctx.rank(bias))));
    node = ctx.builder().binary(fb::XNodeUnion::XNNAdd, fc_out, cb, ctx.define(out, lo));
  }
  ctx.set_producer(out, node);
  return Error::Ok;
}

Error serialize_pool(SerializeContext& ctx, const aot::Node& n, bool max) {
  ValueId x = input_tensor(n, "self"), out = output_tensor(n);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(x, nhwc_layout()));
  fb::_XNNPooling2DT* p = pool_node_params(ctx, n);
  p->input_id = id;
  p->output_id = ctx.define(out, nhwc_layout());
  ctx.set_producer(out, ctx.builder().add_node(max ? fb::XNodeUnion::XNNMaxPooling2d : fb::XNodeUnion::XNNAvgPooling2d, p));
  return Error::Ok;
}

Error serialize_global_avg(SerializeContext& ctx, ValueId x, ValueId out) {
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(x, nhwc_layout()));
  const std::vector<int64_t> in = ctx.sizes(x);
  if (ctx.rank(out) == 4) {
    uint32_t o = ctx.define(out, nhwc_layout());
    ctx.set_producer(out, ctx.builder().unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, id, o));
    return Error::Ok;
  }
  uint32_t tmp = ctx.builder().add_value({uint32_t(in[0]), 1, 1, uint32_t(in[1])});
  ctx.builder().unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, id, tmp);
  const Layout l = identity_layout(ctx.rank(out));
  uint32_t o = ctx.define(out, l);
  ctx.builder().reshape(permute_dims(ctx.sizes(out), l), tmp, o);
  return Error::Ok;
}

}  // namespace

fb::_XNNPooling2DT* pool_node_params(const SerializeContext& ctx, const aot::Node& n) {
  ValueId x = input_tensor(n, "self"), out = output_tensor(n);
  std::vector<int64_t> k = input_ints(n, "kernel_size", {1}), s = input_ints(n, "stride", {});
  std::vector<int64_t> pad = input_ints(n, "padding", {0}), dil = input_ints(n, "dilation", {1});
  if (s.empty()) s = k;
  const std::vector<int64_t> in = ctx.sizes(x), os = ctx.sizes(out);
  auto* p = new fb::_XNNPooling2DT();
  uint32_t extra[2];
  for (size_t d = 0; d < 2; ++d) {  // ceil_mode: pad bottom/right so the last window fits
    const int64_t eff = (pick(k, d, 1) - 1) * pick(dil, d, 1) + 1;
    const int64_t need = (os[2 + d] - 1) * pick(s, d, 1) + eff - (in[2 + d] + 2 * pick(pad, d, 0));
    extra[d] = uint32_t(need > 0 ? need : 0);
  }
  p->padding_top = uint32_t(pick(pad, 0, 0));
  p->padding_bottom = p->padding_top + extra[0];
  p->padding_left = uint32_t(pick(pad, 1, 0));
  p->padding_right = p->padding_left + extra[1];
  p->pooling_height = uint32_t(pick(k, 0, 1));
  p->pooling_width = uint32_t(pick(k, 1, 1));
  p->stride_height = uint32_t(pick(s, 0, 1));
  p->stride_width = uint32_t(pick(s, 1, 1));
  p->dilation_height = uint32_t(pick(dil, 0, 1));
  p->dilation_width = uint32_t(pick(dil, 1, 1));
  return p;
}


fb::_XNNNodeConvT* conv_node_params(const aot::Node& n, const std::vector<int64_t>& ws) {
  const int64_t groups = static_cast<int64_t>(input_double(n, "groups", 1));
  std::vector<int64_t> stride = input_ints(n, "stride", {1}), pad = input_ints(n, "padding", {0});
  std::vector<int64_t> dil = input_ints(n, "dilation", {1});
  auto* c = new fb::_XNNNodeConvT();
  c->padding_top = c->padding_bottom = uint32_t(pick(pad, 0, 0));
  c->padding_left = c->padding_right = uint32_t(pick(pad, 1, 0));
  c->kernel_height = uint32_t(ws[2]);
  c->kernel_width = uint32_t(ws[3]);
  c->subsampling_height = uint32_t(pick(stride, 0, 1));
  c->subsampling_width = uint32_t(pick(stride, 1, 1));
  c->dilation_height = uint32_t(pick(dil, 0, 1));
  c->dilation_width = uint32_t(pick(dil, 1, 1));
  c->groups = uint32_t(groups);
  c->group_input_channels = uint32_t(ws[1]);
  c->group_output_channels = uint32_t(ws[0] / groups);
  return c;
}

Error serialize_nn_op(SerializeContext& ctx, const aot::Node& n) {
  const std::string q = n.op.qualified();
  if (q == "aten::convolution.default") return serialize_conv(ctx, n);
  if (q == "aten::_native_batch_norm_legit_no_training.default") return serialize_batch_norm(ctx, n);
  if (q == "aten::addmm.default") {
    return serialize_matmul(ctx, input_tensor(n, "mat1"), input_tensor(n, "mat2"), true, input_tensor(n, "self"),
                        output_tensor(n));
  }
  if (q == "aten::mm.default" || q == "aten::bmm.default") {
    ValueId a = input_tensor(n, "self"), b = input_tensor(n, "mat2");
    if (q == "aten::bmm.default" && ctx.is_constant(b)) {
      EMBER_ASSIGN_OR_RETURN(uint32_t ia, ctx.get(a, identity_layout(3)));
      EMBER_ASSIGN_OR_RETURN(uint32_t ib, ctx.get(b, identity_layout(3)));
      ctx.builder().binary(fb::XNodeUnion::XNNBatchMatrixMultiply, ia, ib,
                           ctx.define(output_tensor(n), identity_layout(3)));
      return Error::Ok;
    }
    return serialize_matmul(ctx, a, b, true, aot::kNoValue, output_tensor(n));
  }
  if (q == "aten::linear.default") {
    return serialize_matmul(ctx, input_tensor(n, "input"), input_tensor(n, "weight"), false,
                        input_tensor(n, "bias"), output_tensor(n));
  }
  if (q == "aten::max_pool2d_with_indices.default" || q == "aten::max_pool2d.default") {
    return serialize_pool(ctx, n, true);
  }
  if (q == "aten::avg_pool2d.default") return serialize_pool(ctx, n, false);
  if (q == "aten::mean.dim" || q == "aten::_adaptive_avg_pool2d.default" ||
      q == "aten::adaptive_avg_pool2d.default") {
    return serialize_global_avg(ctx, input_tensor(n, "self"), output_tensor(n));
  }
  return aot::not_found(q);
}

}  // namespace ember::backends::xnnpack
