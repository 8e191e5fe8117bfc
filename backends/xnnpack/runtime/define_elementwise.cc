// Elementwise nodes: binary arithmetic (with fused output clamp), unary math and activations
// (one xnn_define_unary each), clamp, softmax and datatype conversion.
#include <cmath>

#include "backends/xnnpack/runtime/define_node.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

namespace {

Error check(const DefineContext& ctx, uint32_t index, const char* fn, xnn_status st) {
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

// The binary operator of a node type; xnn_binary_invalid for other types. `clamps` says
// whether the node carries an output range.
xnn_binary_operator binary_op(XNodeUnion type, bool* clamps) {
  *clamps = true;
  switch (type) {
    case XNodeUnion::XNNAdd:
      return xnn_binary_add;
    case XNodeUnion::XNNSubtract:
      return xnn_binary_subtract;
    case XNodeUnion::XNNMultiply:
      return xnn_binary_multiply;
    case XNodeUnion::XNNDiv:
      return xnn_binary_divide;
    default:
      break;
  }
  *clamps = false;
  switch (type) {
    case XNodeUnion::XNNMinimum:
      return xnn_binary_minimum;
    case XNodeUnion::XNNMaximum:
      return xnn_binary_maximum;
    case XNodeUnion::XNNPReLU:
      return xnn_binary_prelu;
    default:
      return xnn_binary_invalid;
  }
}

xnn_unary_operator unary_op(XNodeUnion type) {
  switch (type) {
    case XNodeUnion::XNNSigmoid:
      return xnn_unary_sigmoid;
    case XNodeUnion::XNNFloor:
      return xnn_unary_floor;
    case XNodeUnion::XNNCeiling:
      return xnn_unary_ceiling;
    case XNodeUnion::XNNSquareRoot:
      return xnn_unary_square_root;
    case XNodeUnion::XNNSquare:
      return xnn_unary_square;
    case XNodeUnion::XNNHardswish:
      return xnn_unary_hardswish;
    case XNodeUnion::XNNNegate:
      return xnn_unary_negate;
    case XNodeUnion::XNNAbs:
      return xnn_unary_abs;
    case XNodeUnion::XNNConvert:
      return xnn_unary_convert;
    case XNodeUnion::XNNClamp:
      return xnn_unary_clamp;
    case XNodeUnion::XNNLeakyReLU:
      return xnn_unary_leaky_relu;
    case XNodeUnion::XNNELU:
      return xnn_unary_elu;
    case XNodeUnion::XNNTanh:
      return xnn_unary_tanh;
    case XNodeUnion::XNNExp:
      return xnn_unary_exp;
    case XNodeUnion::XNNLog:
      return xnn_unary_log;
    case XNodeUnion::XNNSin:
      return xnn_unary_sine;
    case XNodeUnion::XNNCos:
      return xnn_unary_cosine;
    case XNodeUnion::XNNGelu:
      return xnn_unary_gelu;
    case XNodeUnion::XNNReciprocalSquareRoot:
      return xnn_unary_reciprocal_square_root;
    default:
      return xnn_unary_invalid;
  }
}

}  // namespace

Error define_elementwise(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  const uint32_t a = ctx.id(d.inputs[0]);
  const uint32_t out = ctx.id(d.outputs[0]);
  *handled = true;
  if (d.type == XNodeUnion::XNNSoftmax) {
    return check(ctx, index, "xnn_define_softmax", xnn_define_softmax(ctx.subgraph, a, out, 0));
  }
  bool clamps = false;
  const xnn_binary_operator bop = binary_op(d.type, &clamps);
  if (bop != xnn_binary_invalid) {
    xnn_binary_params params;
    params.output_min = d.output_min;
    params.output_max = d.output_max;
    const bool no_clamp = !clamps || (std::isinf(d.output_min) && d.output_min < 0 &&
                                      std::isinf(d.output_max) && d.output_max > 0);
    return check(ctx, index, "xnn_define_binary",
                 xnn_define_binary(ctx.subgraph, bop, no_clamp ? nullptr : &params, a,
                                   ctx.id(d.inputs[1]), out, 0));
  }
  const xnn_unary_operator uop = unary_op(d.type);
  if (uop == xnn_unary_invalid) {
    *handled = false;
    return Error::NotSupported;
  }
  xnn_unary_params params = {};
  const xnn_unary_params* p = nullptr;
  if (d.type == XNodeUnion::XNNClamp) {
    params.clamp.min = d.output_min;
    params.clamp.max = d.output_max;
    p = &params;
  } else if (d.type == XNodeUnion::XNNLeakyReLU) {
    params.leaky_relu.negative_slope = d.node->xnode_union_as_XNNLeakyReLU()->negative_slope();
    p = &params;
  } else if (d.type == XNodeUnion::XNNELU) {
    params.elu.alpha = d.node->xnode_union_as_XNNELU()->alpha();
    p = &params;
  }
  return check(ctx, index, "xnn_define_unary", xnn_define_unary(ctx.subgraph, uop, p, a, out, 0));
}

}  // namespace ember::backends::xnnpack
