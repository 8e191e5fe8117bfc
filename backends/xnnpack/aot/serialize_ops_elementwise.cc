// Elementwise ops: binary arithmetic (Tensor and Scalar overloads; a constant operand is
// broadcast to the output's rank and stored in the other operand's layout), clamps
// (relu, hardtanh, clamp: fused into the producing node's output_min_max when it is the
// value's only use), unary activations (gelu, tanh, exp, log, sin, cos, rsqrt
// included) and softmax (over the physically innermost dim).
#include "backends/xnnpack/aot/serialize_context.h"

#include <cstring>
#include <limits>

namespace ember::backends::xnnpack {

namespace fb = fb_xnnpack;
using aot::Error;
using aot::ValueId;

namespace {

constexpr float kInf = std::numeric_limits<float>::infinity();

uint32_t add_float_constant(SerializeContext& ctx, std::vector<float> data, std::vector<int64_t> sizes,
                            const Layout& l) {
  std::vector<float> phys = permute_floats(data, sizes, l);
  std::vector<uint8_t> bytes(phys.size() * sizeof(float));
  if (!bytes.empty()) std::memcpy(bytes.data(), phys.data(), bytes.size());
  return ctx.builder().add_constant(permute_dims(sizes, l), std::move(bytes));
}

// One operand of a binary op: a tensor value, or a scalar when v == kNoValue.
struct Operand {
  ValueId v = aot::kNoValue;
  float scalar = 0.f;
};

aot::Result<uint32_t> operand_id(SerializeContext& ctx, const Operand& op, size_t r, const Layout& l) {
  if (op.v == aot::kNoValue) return add_float_constant(ctx, {op.scalar}, std::vector<int64_t>(r, 1), l);
  if (ctx.is_constant(op.v)) {
    std::vector<int64_t> s = ctx.sizes(op.v);
    s.insert(s.begin(), r - s.size(), 1);
    return add_float_constant(ctx, ctx.constant(op.v), s, l);
  }
  if (ctx.rank(op.v) == r) return ctx.get(op.v, l);
  return ctx.get(op.v, identity_layout(ctx.rank(op.v)));
}

Error serialize_binary(SerializeContext& ctx, fb::XNodeUnion type, Operand a, Operand b, ValueId out) {
  const size_t r = ctx.rank(out);
  Layout l = identity_layout(r);
  bool low_rank_activation = false;
  for (const Operand* op : {&b, &a}) {
    if (op->v == aot::kNoValue || ctx.is_constant(op->v)) continue;
    if (ctx.rank(op->v) == r) {
      l = ctx.layout_of(op->v);
    } else {
      low_rank_activation = true;
    }
  }
  if (low_rank_activation) l = identity_layout(r);
  EMBER_ASSIGN_OR_RETURN(uint32_t ia, operand_id(ctx, a, r, l));
  EMBER_ASSIGN_OR_RETURN(uint32_t ib, operand_id(ctx, b, r, l));
  uint32_t o = ctx.define(out, l);
  ctx.set_producer(out, ctx.builder().binary(type, ia, ib, o));
  return Error::Ok;
}

bool fusable(fb::XNodeUnion t) {
  switch (t) {
    case fb::XNodeUnion::XNNConv2d: case fb::XNodeUnion::XNNFullyConnected:
    case fb::XNodeUnion::XNNAdd: case fb::XNodeUnion::XNNSubtract:
    case fb::XNodeUnion::XNNMultiply: case fb::XNodeUnion::XNNDiv:
    case fb::XNodeUnion::XNNMaxPooling2d: case fb::XNodeUnion::XNNAvgPooling2d:
    case fb::XNodeUnion::XNNGlobalAvgPooling2d: case fb::XNodeUnion::XNNClamp:
      return true;
    default:
      return false;
  }
}

Error serialize_clamp(SerializeContext& ctx, ValueId in, ValueId out, float lo, float hi) {
  Layout l = ctx.layout_of(in);
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, l));
  const int p = ctx.producer(in);
  if (p >= 0 && !ctx.is_output(in) && ctx.num_uses(in) == 1 &&
      fusable(ctx.builder().node(static_cast<size_t>(p)).xnode_union.type)) {
    auto& node = ctx.builder().node(static_cast<size_t>(p));
    float old_lo = node.output_min_max ? node.output_min_max->output_min : -kInf;
    float old_hi = node.output_min_max ? node.output_min_max->output_max : kInf;
    ctx.builder().set_output_min_max(static_cast<size_t>(p), std::max(lo, old_lo), std::min(hi, old_hi));
    ctx.bind(out, id, l);
    ctx.set_producer(out, static_cast<size_t>(p));
    return Error::Ok;
  }
  uint32_t o = ctx.define(out, l);
  size_t node = ctx.builder().unary(fb::XNodeUnion::XNNClamp, id, o);
  ctx.builder().set_output_min_max(node, lo, hi);
  ctx.set_producer(out, node);
  return Error::Ok;
}

Error serialize_unary(SerializeContext& ctx, fb::XNodeUnion type, void* table, ValueId in, ValueId out) {
  Layout l = ctx.layout_of(in);
  auto id = ctx.get(in, l);
  if (!id.ok()) {
    if (type == fb::XNodeUnion::XNNLeakyReLU) delete static_cast<fb::XNNLeakyReLUT*>(table);
    if (type == fb::XNodeUnion::XNNELU) delete static_cast<fb::XNNELUT*>(table);
    return id.error();
  }
  uint32_t o = ctx.define(out, l);
  if (table == nullptr) {
    ctx.builder().unary(type, id.get(), o);
    return Error::Ok;
  }
  if (type == fb::XNodeUnion::XNNLeakyReLU) {
    auto* t = static_cast<fb::XNNLeakyReLUT*>(table);
    t->input_id = id.get();
    t->output_id = o;
  } else {
    auto* t = static_cast<fb::XNNELUT*>(table);
    t->input_id = id.get();
    t->output_id = o;
  }
  ctx.builder().add_node(type, table);
  return Error::Ok;
}

Error serialize_softmax(SerializeContext& ctx, ValueId in, ValueId out, int64_t dim) {
  const size_t r = ctx.rank(in);
  if (dim < 0) dim += static_cast<int64_t>(r);
  Layout l;
  for (uint8_t d : ctx.layout_of(in)) {
    if (d != dim) l.push_back(d);
  }
  l.push_back(static_cast<uint8_t>(dim));
  EMBER_ASSIGN_OR_RETURN(uint32_t id, ctx.get(in, l));
  ctx.builder().unary(fb::XNodeUnion::XNNSoftmax, id, ctx.define(out, l));
  return Error::Ok;
}

fb::XNodeUnion binary_type(const std::string& name) {
  if (name == "add") return fb::XNodeUnion::XNNAdd;
  if (name == "sub") return fb::XNodeUnion::XNNSubtract;
  if (name == "mul") return fb::XNodeUnion::XNNMultiply;
  if (name == "div") return fb::XNodeUnion::XNNDiv;
  if (name == "maximum") return fb::XNodeUnion::XNNMaximum;
  if (name == "minimum") return fb::XNodeUnion::XNNMinimum;
  return fb::XNodeUnion::NONE;
}

fb::XNodeUnion unary_type(const std::string& name) {
  if (name == "sigmoid") return fb::XNodeUnion::XNNSigmoid;
  if (name == "hardswish") return fb::XNodeUnion::XNNHardswish;
  if (name == "neg") return fb::XNodeUnion::XNNNegate;
  if (name == "abs") return fb::XNodeUnion::XNNAbs;
  if (name == "floor") return fb::XNodeUnion::XNNFloor;
  if (name == "ceil") return fb::XNodeUnion::XNNCeiling;
  if (name == "sqrt") return fb::XNodeUnion::XNNSquareRoot;
  // XNNPACK operators since 2024 (xnn_define_unary; the 2022 library lacked them).
  if (name == "gelu") return fb::XNodeUnion::XNNGelu;  // approximate = "none" (support check)
  if (name == "tanh") return fb::XNodeUnion::XNNTanh;
  if (name == "exp") return fb::XNodeUnion::XNNExp;
  if (name == "log") return fb::XNodeUnion::XNNLog;
  if (name == "sin") return fb::XNodeUnion::XNNSin;
  if (name == "cos") return fb::XNodeUnion::XNNCos;
  if (name == "rsqrt") return fb::XNodeUnion::XNNReciprocalSquareRoot;
  return fb::XNodeUnion::NONE;
}

}  // namespace

Error serialize_elementwise_op(SerializeContext& ctx, const aot::Node& n) {
  const std::string& name = n.op.name;
  const std::string& ov = n.op.overload;
  ValueId self = input_tensor(n, "self"), out = output_tensor(n);
  fb::XNodeUnion bt = binary_type(name);
  if (bt != fb::XNodeUnion::NONE && (ov == "Tensor" || ov == "default")) {
    return serialize_binary(ctx, bt, {self}, {input_tensor(n, "other")}, out);
  }
  if (bt != fb::XNodeUnion::NONE && ov == "Scalar") {
    return serialize_binary(ctx, bt, {self}, {aot::kNoValue, float(input_double(n, "other", 0))}, out);
  }
  if (name == "relu" && ov == "default") return serialize_clamp(ctx, self, out, 0.f, kInf);
  if (name == "hardtanh" && ov == "default") {
    return serialize_clamp(ctx, self, out, float(input_double(n, "min_val", -1)), float(input_double(n, "max_val", 1)));
  }
  if (name == "clamp" && ov == "default") {
    return serialize_clamp(ctx, self, out, float(input_double(n, "min", -kInf)), float(input_double(n, "max", kInf)));
  }
  if (name == "_softmax" || (name == "softmax" && ov == "int")) {
    return serialize_softmax(ctx, self, out, static_cast<int64_t>(input_double(n, "dim", -1)));
  }
  if (name == "leaky_relu" && ov == "default") {
    auto* t = new fb::XNNLeakyReLUT();
    t->negative_slope = float(input_double(n, "negative_slope", 0.01));
    return serialize_unary(ctx, fb::XNodeUnion::XNNLeakyReLU, t, self, out);
  }
  if (name == "elu" && ov == "default") {
    auto* t = new fb::XNNELUT();
    t->alpha = float(input_double(n, "alpha", 1.0));
    return serialize_unary(ctx, fb::XNodeUnion::XNNELU, t, self, out);
  }
  fb::XNodeUnion ut = unary_type(name);
  if (ut != fb::XNodeUnion::NONE && ov == "default") return serialize_unary(ctx, ut, nullptr, self, out);
  return aot::not_found(n.op.qualified());
}

}  // namespace ember::backends::xnnpack
