// Quantized programs (README, "Quantized programs"): the quantize / dequantize nodes of a
// PT2E program and the dq -> op -> q groups that become XNNPACK's int8 operators.
//
//   x_q = quantize(x)            XNNConvert fp32 -> qint8 (unless an int8 operator wrote it)
//   x_f = dequantize(x_q)        nothing: x_f is recorded as the dequantized form of x_q;
//                                a float consumer gets XNNConvert qint8 -> fp32 on demand
//   w_f = dequantize(w_int8)     a constant: int8 filter for int8 operators, else dequantized
//   y_q = quantize(relu(conv(x_f, w_f, b)))
//                              -> XNNConv2d(qint8 x_q, qcint8/qint8 w, qcint32/qint32 b)
//                                 writing qint8 y_q, relu folded into its output range
// Linear (addmm over a permuted weight; per-channel weights as a 1x1 convolution, since this
// XNNPACK's fully connected has no per-channel filters), add, mul and global average pooling
// (mean over H and W, keepdim) go the same way; relu / hardtanh / max pooling between a dequantize
// and a quantize with the same parameters run on the int8 values (a clamp folds into the
// int8 operator that produced its input). Everything else runs in fp32 between converts.
#include <algorithm>
#include <cmath>
#include <cstring>

#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::QdqGranularity;
using aot::QdqKind;
using aot::QuantParams;
using aot::ValueId;

namespace {

// The operator limits of Debian's XNNPACK (Feb 2022): requantization scales of conv / fully
// connected in [2^-32, 256), input-to-output scale ratios of add in [2^-10, 2^8).
bool conv_scale_ok(double r) { return r >= 0x1.0p-32 && r < 256.0; }
bool add_scale_ok(double r) { return r >= 0x1.0p-10 && r < 0x1.0p+8; }
// qs8 multiply: (a_scale * b_scale) / output_scale in [2^-16, 2^8).
bool mul_scale_ok(double r) { return r >= 0x1.0p-16 && r < 0x1.0p+8; }
// qs8 global average pooling: input-to-output scale ratio in [2^-8, 2^8).
bool avg_scale_ok(double r) { return r >= 0x1.0p-8 && r < 0x1.0p+8; }

class Matcher {
 public:
  explicit Matcher(const aot::Graph& g)
      : g_(g), producers_(aot::value_producers(g)), uses_(aot::compute_uses(g)) {}

  // The parameters of the int8 dequantize node that produced v: an activation dequantized
  // per tensor, or (want_constant) a constant weight with zero points 0 (XNNPACK filters).
  bool dequantized(ValueId v, bool want_constant, QuantParams* p) const {
    if (!g_.valid_id(v) || producers_[size_t(v)] < 0) return false;
    const aot::Node& n = g_.nodes()[size_t(producers_[size_t(v)])];
    if (!aot::is_quantized_decomposed(n)) return false;
    aot::Result<QuantParams> r = aot::read_qdq(g_, n);
    if (!r.ok() || r->kind != QdqKind::Dequantize || r->dtype != aot::ScalarType::Char ||
        r->out_dtype != aot::ScalarType::Float) {
      return false;
    }
    const bool constant = g_.value(r->input).tensor.constant != nullptr;
    if (constant != want_constant) return false;
    if (!constant) {
      *p = std::move(r.get());
      return p->granularity == QdqGranularity::PerTensor;
    }
    if (r->granularity == QdqGranularity::PerTensorDynamic) return false;
    if (r->granularity == QdqGranularity::PerChannel &&
        (r->axis != 0 || r->scales.empty() || r->zero_points.size() != r->scales.size())) {
      return false;
    }
    for (int64_t z : r->zero_points) {
      if (z != 0) return false;
    }
    if (r->zero_point != 0) return false;
    *p = std::move(r.get());
    return true;
  }

  // Follows v through single-use relu / hardtanh nodes to one int8 quantize node.
  bool quantized_output(ValueId v, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    for (;;) {
      if (uses_.is_graph_output[size_t(v)] || uses_.node_users[size_t(v)].size() != 1) return false;
      const size_t u = size_t(uses_.node_users[size_t(v)][0]);
      const aot::Node& n = g_.nodes()[u];
      const std::string q = n.op.qualified();
      absorbed->push_back(u);
      if (q == "aten::relu.default") {
        op->clamp_lo = std::max(op->clamp_lo, 0.0f);
      } else if (q == "aten::hardtanh.default") {
        op->clamp_lo = std::max(op->clamp_lo, float(input_double(n, "min_val", -1.0)));
        op->clamp_hi = std::min(op->clamp_hi, float(input_double(n, "max_val", 1.0)));
      } else if (aot::is_quantized_decomposed(n)) {
        aot::Result<QuantParams> r = aot::read_qdq(g_, n);
        if (!r.ok() || r->kind != QdqKind::Quantize || r->dtype != aot::ScalarType::Char ||
            r->granularity != QdqGranularity::PerTensor) {
          return false;
        }
        op->output = r->output;
        op->output_params = std::move(r.get());
        return op->clamp_lo < op->clamp_hi;
      } else {
        return false;
      }
      v = output_tensor(n);
    }
  }

  bool float_constant(ValueId v) const {
    return v == aot::kNoValue || (g_.value(v).tensor.constant != nullptr &&
                                  g_.value(v).tensor.dtype == aot::ScalarType::Float);
  }

  // Every channel's requantization scale in XNNPACK's range.
  static bool requantizable(const QuantParams& x, const QuantParams& w, const QuantParams& out) {
    const std::vector<double> ws = w.granularity == QdqGranularity::PerChannel
                                       ? w.scales : std::vector<double>{w.scale};
    for (double s : ws) {
      if (!conv_scale_ok(x.scale * s / out.scale)) return false;
    }
    return true;
  }

  bool conv(const aot::Node& n, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    QuantParams x, w;
    if (input_bool(n, "transposed", false) || !dequantized(input_tensor(n, "input"), false, &x) ||
        !dequantized(input_tensor(n, "weight"), true, &w) ||
        !float_constant(input_tensor(n, "bias")) ||
        g_.value(input_tensor(n, "input")).tensor.rank() != 4) {
      return false;
    }
    return quantized_output(output_tensor(n), op, absorbed) &&
           requantizable(x, w, op->output_params);
  }

  // addmm(bias, x [M, K], permute(dequantize(w [N, K]), [1, 0])).
  bool linear(const aot::Node& n, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    QuantParams x, w;
    const ValueId mat2 = input_tensor(n, "mat2"), bias = input_tensor(n, "self");
    if (input_double(n, "beta", 1.0) != 1.0 || input_double(n, "alpha", 1.0) != 1.0 ||
        !dequantized(input_tensor(n, "mat1"), false, &x) || !g_.valid_id(mat2) ||
        producers_[size_t(mat2)] < 0 || bias == aot::kNoValue || !float_constant(bias) ||
        g_.value(bias).tensor.rank() != 1) {
      return false;
    }
    const aot::Node& p = g_.nodes()[size_t(producers_[size_t(mat2)])];
    if (p.op.qualified() != "aten::permute.default" ||
        input_ints(p, "dims", {}) != std::vector<int64_t>{1, 0}) {
      return false;
    }
    op->weight = input_tensor(p, "self");
    return dequantized(op->weight, true, &w) && g_.value(input_tensor(n, "mat1")).tensor.rank() == 2 &&
           quantized_output(output_tensor(n), op, absorbed) &&
           requantizable(x, w, op->output_params);
  }

  // relu / hardtanh / max_pool2d whose quantize keeps the input's parameters.
  bool same_params(const aot::Node& n, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    QuantParams x;
    const std::string q = n.op.qualified();
    if (!dequantized(input_tensor(n, "self"), false, &x)) return false;
    if (q == "aten::relu.default") op->clamp_lo = 0.0f;
    if (q == "aten::hardtanh.default") {
      op->clamp_lo = float(input_double(n, "min_val", -1.0));
      op->clamp_hi = float(input_double(n, "max_val", 1.0));
    }
    if (n.outputs.size() > 1) {  // max_pool2d_with_indices: the indices must be unused
      const ValueId indices = output_tensor(n, 1);
      if (indices != aot::kNoValue && (!uses_.node_users[size_t(indices)].empty() ||
                                       uses_.is_graph_output[size_t(indices)])) {
        return false;
      }
    }
    return quantized_output(output_tensor(n), op, absorbed) &&
           op->output_params.scale == x.scale && op->output_params.zero_point == x.zero_point;
  }

  // The int8 value a node's dequantized "self" input comes from.
  ValueId dequantized_source(const aot::Node& n) const {
    const ValueId v = input_tensor(n, "self");
    if (!g_.valid_id(v) || producers_[size_t(v)] < 0) return aot::kNoValue;
    return input_tensor(g_.nodes()[size_t(producers_[size_t(v)])], "input");
  }

  // The int8 value v is read only through one dequantize whose output has one use.
  bool single_dequantized_use(ValueId v) const {
    if (v == aot::kNoValue) return false;
    if (uses_.is_graph_output[size_t(v)] || uses_.node_users[size_t(v)].size() != 1) return false;
    const ValueId f = output_tensor(g_.nodes()[size_t(uses_.node_users[size_t(v)][0])]);
    return f != aot::kNoValue && !uses_.is_graph_output[size_t(f)] &&
           uses_.node_users[size_t(f)].size() == 1;
  }

  // mean over the spatial dims of an NCHW tensor, keepdim: XNNPACK's qs8 global average
  // pooling (adaptive_avg_pool2d(1) and mean((-1, -2), keepdim=True) in the edge graph).
  bool global_avg(const aot::Node& n, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    QuantParams x;
    const ValueId v = input_tensor(n, "self");
    if (!dequantized(v, false, &x) || g_.value(v).tensor.rank() != 4 ||
        !input_bool(n, "keepdim", false)) {
      return false;
    }
    std::vector<int64_t> dims = input_ints(n, "dim", {});
    for (int64_t& d : dims) d = d < 0 ? d + 4 : d;
    std::sort(dims.begin(), dims.end());
    if (dims != std::vector<int64_t>{2, 3}) return false;
    return quantized_output(output_tensor(n), op, absorbed) &&
           avg_scale_ok(x.scale / op->output_params.scale);
  }

  // add / mul of two dequantized tensors of one shape (mul: XNNPACK's qs8 multiply).
  bool binary(const aot::Node& n, bool mul, QuantizedOp* op, std::vector<size_t>* absorbed) const {
    QuantParams a, b;
    const ValueId va = input_tensor(n, "self"), vb = input_tensor(n, "other");
    if (input_double(n, "alpha", 1.0) != 1.0 || !dequantized(va, false, &a) ||
        !dequantized(vb, false, &b) || g_.value(va).tensor.to_string() != g_.value(vb).tensor.to_string() ||
        !quantized_output(output_tensor(n), op, absorbed)) {
      return false;
    }
    const double out = op->output_params.scale;
    if (mul) return mul_scale_ok(a.scale * b.scale / out);
    return add_scale_ok(a.scale / out) && add_scale_ok(b.scale / out);
  }

 private:
  const aot::Graph& g_;
  std::vector<int> producers_;
  aot::ValueUses uses_;
};

std::vector<uint8_t> int8_bytes(const std::vector<float>& v) {
  std::vector<uint8_t> out(v.size());
  for (size_t i = 0; i < v.size(); ++i) out[i] = static_cast<uint8_t>(static_cast<int8_t>(v[i]));
  return out;
}

// The int8 data of a dequantized constant, in `layout` (exact through float).
std::vector<uint8_t> int8_constant(const aot::Graph& g, ValueId source, const Layout& layout) {
  const auto& bytes = g.value(source).tensor.constant->bytes;
  std::vector<float> f(bytes.size());
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<int8_t>(bytes[i]);
  std::vector<int64_t> sizes;
  for (const aot::SymInt& s : g.value(source).tensor.sizes) sizes.push_back(s.value);
  return int8_bytes(permute_floats(f, sizes, layout));
}

// Filter (qcint8 per channel along dim 0, or qint8) and its int32 bias (scales
// input_scale * filter_scale, zero point 0) for an int8 conv / fully connected.
std::pair<uint32_t, uint32_t> int8_weights(SerializeContext& ctx, const SerializeContext::Dequantized& w,
                                           const QuantParams& x, ValueId bias,
                                           const std::vector<uint32_t>& filter_dims,
                                           const Layout& layout) {
  const QuantParams& p = w.params;
  const size_t n = filter_dims[0];
  const bool per_channel = p.granularity == QdqGranularity::PerChannel;
  std::vector<float> ws(n), bs(n);
  for (size_t c = 0; c < n; ++c) {
    ws[c] = float(per_channel ? p.scales[p.scales.size() == 1 ? 0 : c] : p.scale);
    bs[c] = float(x.scale) * ws[c];
  }
  const ValueType ftype = per_channel ? ValueType::per_channel(fb::XNNDatatype::xnn_datatype_qcint8, ws, 0)
                                      : ValueType::per_tensor(fb::XNNDatatype::xnn_datatype_qint8, ws[0], 0);
  const ValueType btype = per_channel ? ValueType::per_channel(fb::XNNDatatype::xnn_datatype_qcint32, bs, 0)
                                      : ValueType::per_tensor(fb::XNNDatatype::xnn_datatype_qint32, bs[0], 0);
  const uint32_t filter =
      ctx.builder().add_constant(filter_dims, int8_constant(ctx.graph(), w.source, layout), ftype);
  std::vector<int32_t> b(n, 0);
  if (bias != aot::kNoValue) {
    const std::vector<float>& f = ctx.constant(bias);
    for (size_t c = 0; c < n; ++c) b[c] = int32_t(std::nearbyint(double(f[c]) / double(bs[c])));
  }
  std::vector<uint8_t> bytes(n * 4);
  std::memcpy(bytes.data(), b.data(), bytes.size());
  return {filter, ctx.builder().add_constant({uint32_t(n)}, std::move(bytes), btype)};
}

// The int8 value the operator writes: the quantize node's output, held in `layout`.
uint32_t define_output(SerializeContext& ctx, const QuantizedOp& op, const Layout& layout) {
  uint32_t id = ctx.builder().add_value(permute_dims(ctx.sizes(op.output), layout),
                                        SerializeContext::activation_type(op.output_params));
  ctx.bind(op.output, id, layout);
  return id;
}

// Sets the folded clamp of the int8 operator `node` and records it as op.output's producer.
void finish(SerializeContext& ctx, size_t node, const QuantizedOp& op) {
  if (std::isfinite(op.clamp_lo) || std::isfinite(op.clamp_hi)) {
    ctx.builder().set_output_min_max(node, op.clamp_lo, op.clamp_hi);
  }
  ctx.set_producer(op.output, node);
}

Error input_of(SerializeContext& ctx, ValueId v, const Layout& layout,
               const SerializeContext::Dequantized** d, uint32_t* id) {
  *d = ctx.dequantized(v);
  if (*d == nullptr) {
    return aot::invalid_program("xnnpack lowering: '" + ctx.graph().value(v).name +
                                "' is not a dequantized value");
  }
  EMBER_ASSIGN_OR_RETURN(*id, ctx.get((*d)->source, layout));
  return Error::Ok;
}

Error int8_conv(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op) {
  const SerializeContext::Dequantized *x = nullptr, *w = ctx.dequantized(input_tensor(n, "weight"));
  uint32_t in = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "input"), nhwc_layout(), &x, &in));
  const std::vector<int64_t> ws = ctx.sizes(input_tensor(n, "weight"));
  auto [filter, bias] = int8_weights(ctx, *w, x->params, input_tensor(n, "bias"),
                                     permute_dims(ws, nhwc_layout()), nhwc_layout());
  fb::_XNNNodeConvT* c = conv_node_params(n, ws);
  c->input1_id = in;
  c->filter_id = filter;
  c->bias_id = bias;
  c->output_id = define_output(ctx, op, nhwc_layout());
  finish(ctx, ctx.builder().add_node(fb::XNodeUnion::XNNConv2d, c), op);
  return Error::Ok;
}

// x [M, K] times w [N, K]^T: XNNFullyConnected for a per-tensor weight; a per-channel weight
// (this XNNPACK's fully connected has no qcint8 filter) as a 1x1 convolution over
// [M, 1, 1, K], between two reshapes of the int8 values.
Error int8_linear(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op) {
  const SerializeContext::Dequantized* x = nullptr;
  uint32_t in = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "mat1"), identity_layout(2), &x, &in));
  const SerializeContext::Dequantized& w = *ctx.dequantized(op.weight);
  const std::vector<int64_t> ws = ctx.sizes(op.weight);  // [N, K]: XNNPACK's filter layout
  const uint32_t m = ctx.builder().dims(in)[0], k = uint32_t(ws[1]), nout = uint32_t(ws[0]);
  if (w.params.granularity != QdqGranularity::PerChannel) {
    auto [filter, bias] = int8_weights(ctx, w, x->params, input_tensor(n, "self"), {nout, k},
                                       identity_layout(2));
    auto* fc = new fb::XNNFullyConnectedT();
    fc->input1_id = in;
    fc->filter_id = filter;
    fc->bias_id = bias;
    fc->output_id = define_output(ctx, op, identity_layout(2));
    finish(ctx, ctx.builder().add_node(fb::XNodeUnion::XNNFullyConnected, fc), op);
    return Error::Ok;
  }
  auto [filter, bias] = int8_weights(ctx, w, x->params, input_tensor(n, "self"), {nout, 1, 1, k},
                                     identity_layout(2));
  const uint32_t in4 = ctx.builder().add_value({m, 1, 1, k}, ctx.builder().type(in));
  ctx.builder().reshape({m, 1, 1, k}, in, in4);
  const uint32_t out4 = ctx.builder().add_value({m, 1, 1, nout},
                                                SerializeContext::activation_type(op.output_params));
  auto* c = new fb::_XNNNodeConvT();
  c->kernel_height = c->kernel_width = c->subsampling_height = c->subsampling_width = 1;
  c->dilation_height = c->dilation_width = c->groups = 1;
  c->group_input_channels = k;
  c->group_output_channels = nout;
  c->input1_id = in4;
  c->filter_id = filter;
  c->bias_id = bias;
  c->output_id = out4;
  const size_t node = ctx.builder().add_node(fb::XNodeUnion::XNNConv2d, c);
  finish(ctx, node, op);
  ctx.builder().reshape({m, nout}, out4, define_output(ctx, op, identity_layout(2)));
  return Error::Ok;
}

// XNNAdd or XNNMultiply on the int8 values, in the first input's layout.
Error int8_binary(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op,
                  fb::XNodeUnion type) {
  const SerializeContext::Dequantized *a = nullptr, *b = nullptr;
  const Layout l = ctx.layout_of(input_tensor(n, "self"));  // its int8 source's layout
  uint32_t ia = 0, ib = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "self"), l, &a, &ia));
  EMBER_TRY(input_of(ctx, input_tensor(n, "other"), l, &b, &ib));
  finish(ctx, ctx.builder().binary(type, ia, ib, define_output(ctx, op, l)), op);
  return Error::Ok;
}

// An int8 clamp: folded into the int8 operator that wrote its input when nothing else
// reads that value (the bounds intersect), else an XNNClamp on the int8 values.
Error int8_clamp(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op, bool fold) {
  const SerializeContext::Dequantized* x = nullptr;
  const Layout l = ctx.layout_of(input_tensor(n, "self"));  // its int8 source's layout
  uint32_t in = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "self"), l, &x, &in));
  const int p = ctx.producer(x->source);
  if (fold && p >= 0) {  // p wrote `in`: the source's first layout is the one it defined
    auto& node = ctx.builder().node(size_t(p));
    const float lo = node.output_min_max ? node.output_min_max->output_min : op.clamp_lo;
    const float hi = node.output_min_max ? node.output_min_max->output_max : op.clamp_hi;
    ctx.builder().set_output_min_max(size_t(p), std::max(lo, op.clamp_lo), std::min(hi, op.clamp_hi));
    ctx.bind(op.output, in, l);
    ctx.set_producer(op.output, size_t(p));
    return Error::Ok;
  }
  const size_t node = ctx.builder().unary(fb::XNodeUnion::XNNClamp, in, define_output(ctx, op, l));
  ctx.builder().set_output_min_max(node, op.clamp_lo, op.clamp_hi);
  ctx.set_producer(op.output, node);
  return Error::Ok;
}

Error int8_global_avg(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op) {
  const SerializeContext::Dequantized* x = nullptr;
  uint32_t in = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "self"), nhwc_layout(), &x, &in));
  const uint32_t out = define_output(ctx, op, nhwc_layout());
  finish(ctx, ctx.builder().unary(fb::XNodeUnion::XNNGlobalAvgPooling2d, in, out), op);
  return Error::Ok;
}

Error int8_max_pool(SerializeContext& ctx, const aot::Node& n, const QuantizedOp& op) {
  const SerializeContext::Dequantized* x = nullptr;
  uint32_t in = 0;
  EMBER_TRY(input_of(ctx, input_tensor(n, "self"), nhwc_layout(), &x, &in));
  fb::_XNNPooling2DT* p = pool_node_params(ctx, n);
  p->input_id = in;
  p->output_id = define_output(ctx, op, nhwc_layout());
  finish(ctx, ctx.builder().add_node(fb::XNodeUnion::XNNMaxPooling2d, p), op);
  return Error::Ok;
}

}  // namespace

QuantPlan plan_quantized_ops(const aot::Graph& graph) {
  QuantPlan plan;
  Matcher m(graph);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    const std::string q = graph.nodes()[i].op.qualified();
    QuantizedOp op;
    std::vector<size_t> absorbed;
    bool ok = false;
    if (q == "aten::convolution.default") ok = m.conv(graph.nodes()[i], &op, &absorbed);
    if (q == "aten::addmm.default") ok = m.linear(graph.nodes()[i], &op, &absorbed);
    if (q == "aten::add.Tensor") ok = m.binary(graph.nodes()[i], false, &op, &absorbed);
    if (q == "aten::mul.Tensor") ok = m.binary(graph.nodes()[i], true, &op, &absorbed);
    if (q == "aten::mean.dim") ok = m.global_avg(graph.nodes()[i], &op, &absorbed);
    if (q == "aten::relu.default" || q == "aten::hardtanh.default" ||
        q == "aten::max_pool2d_with_indices.default") {
      ok = m.same_params(graph.nodes()[i], &op, &absorbed);
      op.fold_clamp = ok && q != "aten::max_pool2d_with_indices.default" &&
                      m.single_dequantized_use(m.dequantized_source(graph.nodes()[i]));
    }
    if (!ok) continue;
    plan.ops[i] = std::move(op);
    plan.absorbed.insert(absorbed.begin(), absorbed.end());
  }
  return plan;
}

Error serialize_quantized_op(SerializeContext& ctx, const aot::Node& node, const QuantizedOp& op) {
  const std::string q = node.op.qualified();
  if (q == "aten::convolution.default") return int8_conv(ctx, node, op);
  if (q == "aten::addmm.default") return int8_linear(ctx, node, op);
  if (q == "aten::add.Tensor") return int8_binary(ctx, node, op, fb::XNodeUnion::XNNAdd);
  if (q == "aten::mul.Tensor") return int8_binary(ctx, node, op, fb::XNodeUnion::XNNMultiply);
  if (q == "aten::mean.dim") return int8_global_avg(ctx, node, op);
  if (q == "aten::max_pool2d_with_indices.default") return int8_max_pool(ctx, node, op);
  return int8_clamp(ctx, node, op, op.fold_clamp);
}

Error serialize_qdq_op(SerializeContext& ctx, const aot::Node& node) {
  if (!aot::is_quantized_decomposed(node)) return aot::not_found(node.op.qualified());
  EMBER_ASSIGN_OR_RETURN(QuantParams p, aot::read_qdq(ctx.graph(), node));
  if (p.kind == QdqKind::Dequantize) {
    const bool constant = ctx.graph().value(p.input).tensor.constant != nullptr;
    ValueId out = p.output;
    ctx.add_dequantized(out, {p.input, std::move(p), constant});
    return Error::Ok;
  }
  if (p.kind != QdqKind::Quantize || p.granularity != QdqGranularity::PerTensor) {
    return aot::not_supported("xnnpack lowering: " + node.describe() + " is not a static per-tensor quantize");
  }
  const Layout l = ctx.layout_of(p.input);
  EMBER_ASSIGN_OR_RETURN(uint32_t in, ctx.get(p.input, l));
  uint32_t out = ctx.builder().add_value(permute_dims(ctx.sizes(p.output), l),
                                         SerializeContext::activation_type(p));
  ctx.builder().unary(fb::XNodeUnion::XNNConvert, in, out);
  ctx.bind(p.output, out, l);
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
