// Elementwise nodes: binary arithmetic (with fused output clamp), unary math,
// clamp, activations (sigmoid, hardswish, leaky ReLU, ELU, PReLU), softmax and
// datatype conversion.
#include "backends/xnnpack/runtime/define_node.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

namespace {

Error check(const DefineContext& ctx, uint32_t index, const char* fn, xnn_status st) {
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

using Unary = xnn_status (*)(xnn_subgraph_t, uint32_t, uint32_t, uint32_t);

Unary unary_fn(XNodeUnion type, const char** name) {
  switch (type) {
    case XNodeUnion::XNNSigmoid: *name = "xnn_define_sigmoid"; return xnn_define_sigmoid;
    case XNodeUnion::XNNSoftmax: *name = "xnn_define_softmax"; return xnn_define_softmax;
    case XNodeUnion::XNNFloor: *name = "xnn_define_floor"; return xnn_define_floor;
    case XNodeUnion::XNNCeiling: *name = "xnn_define_ceiling"; return xnn_define_ceiling;
    case XNodeUnion::XNNSquareRoot: *name = "xnn_define_square_root"; return xnn_define_square_root;
    case XNodeUnion::XNNSquare: *name = "xnn_define_square"; return xnn_define_square;
    case XNodeUnion::XNNHardswish: *name = "xnn_define_hardswish"; return xnn_define_hardswish;
    case XNodeUnion::XNNNegate: *name = "xnn_define_negate"; return xnn_define_negate;
    case XNodeUnion::XNNAbs: *name = "xnn_define_abs"; return xnn_define_abs;
    case XNodeUnion::XNNConvert: *name = "xnn_define_convert"; return xnn_define_convert;
    default: return nullptr;
  }
}

}  // namespace

Error define_elementwise(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  const uint32_t a = ctx.id(d.inputs[0]);
  const uint32_t out = ctx.id(d.outputs[0]);
  const uint32_t b = d.num_inputs > 1 ? ctx.id(d.inputs[1]) : XNN_INVALID_VALUE_ID;
  const float lo = d.output_min, hi = d.output_max;
  *handled = true;
  switch (d.type) {
    case XNodeUnion::XNNAdd:
      return check(ctx, index, "xnn_define_add2", xnn_define_add2(ctx.subgraph, lo, hi, a, b, out, 0));
    case XNodeUnion::XNNSubtract:
      return check(ctx, index, "xnn_define_subtract",
                   xnn_define_subtract(ctx.subgraph, lo, hi, a, b, out, 0));
    case XNodeUnion::XNNMultiply:
      return check(ctx, index, "xnn_define_multiply2",
                   xnn_define_multiply2(ctx.subgraph, lo, hi, a, b, out, 0));
    case XNodeUnion::XNNDiv:
      return check(ctx, index, "xnn_define_divide",
                   xnn_define_divide(ctx.subgraph, lo, hi, a, b, out, 0));
    case XNodeUnion::XNNMinimum:
      return check(ctx, index, "xnn_define_minimum2", xnn_define_minimum2(ctx.subgraph, a, b, out, 0));
    case XNodeUnion::XNNMaximum:
      return check(ctx, index, "xnn_define_maximum2", xnn_define_maximum2(ctx.subgraph, a, b, out, 0));
    case XNodeUnion::XNNPReLU:
      return check(ctx, index, "xnn_define_prelu", xnn_define_prelu(ctx.subgraph, a, b, out, 0));
    case XNodeUnion::XNNClamp:
      return check(ctx, index, "xnn_define_clamp", xnn_define_clamp(ctx.subgraph, lo, hi, a, out, 0));
    case XNodeUnion::XNNLeakyReLU: {
      const float slope = d.node->xnode_union_as_XNNLeakyReLU()->negative_slope();
      return check(ctx, index, "xnn_define_leaky_relu",
                   xnn_define_leaky_relu(ctx.subgraph, slope, a, out, 0));
    }
    case XNodeUnion::XNNELU: {
      const float alpha = d.node->xnode_union_as_XNNELU()->alpha();
      return check(ctx, index, "xnn_define_elu", xnn_define_elu(ctx.subgraph, alpha, a, out, 0));
    }
    default:
      break;
  }
  const char* name = nullptr;
  const Unary fn = unary_fn(d.type, &name);
  if (fn == nullptr) {
    *handled = false;
    return Error::NotSupported;
  }
  return check(ctx, index, name, fn(ctx.subgraph, a, out, 0));
}

}  // namespace ember::backends::xnnpack
