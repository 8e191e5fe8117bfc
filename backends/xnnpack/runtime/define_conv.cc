// Convolution-like nodes: 2-D convolution, depthwise convolution, transposed
// convolution (deconvolution), fully connected and batch matrix multiply. Filters arrive in
// XNNPACK's layouts (OHWI, 1HWO for depthwise, [O, I] for fully connected); the exporter already
// permuted them.
#include "backends/xnnpack/runtime/blocked_conv.h"
#include "backends/xnnpack/runtime/define_node.h"
#include "backends/xnnpack/runtime/paired_conv.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

Error define_conv(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  const uint32_t in = ctx.id(d.inputs[0]), filter = ctx.id(d.inputs[1]);
  const uint32_t bias = ctx.id(d.inputs[2]), out = ctx.id(d.outputs[0]);
  const float lo = d.output_min, hi = d.output_max;
  *handled = true;
  xnn_status st;
  const char* fn;
  if (d.type == XNodeUnion::XNNBatchMatrixMultiply) {
    fn = "xnn_define_batch_matrix_multiply";
    st = xnn_define_batch_matrix_multiply(ctx.subgraph, in, filter, out, 0);
    return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
  }
  if (d.type == XNodeUnion::XNNFullyConnected) {
    fn = "xnn_define_fully_connected";
    st = xnn_define_fully_connected(ctx.subgraph, lo, hi, in, filter, bias, out, 0);
    return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
  }
  if (d.type != XNodeUnion::XNNConv2d && d.type != XNodeUnion::XNNDepthwiseConv2d &&
      d.type != XNodeUnion::XNNConvTranspose2d) {
    *handled = false;
    return Error::NotSupported;
  }
  const auto* c = static_cast<const fb_xnnpack::_XNNNodeConv*>(d.node->xnode_union());
  if (d.type == XNodeUnion::XNNConv2d) {
    bool paired = false;
    const Error e = define_paired_conv(ctx, index, &paired);
    if (e != Error::Ok || paired) return e;
    bool blocked = false;
    const Error eb = define_blocked_conv(ctx, index, &blocked);
    if (eb != Error::Ok || blocked) return eb;
    fn = "xnn_define_convolution_2d";
    st = xnn_define_convolution_2d(
        ctx.subgraph, c->padding_top(), c->padding_right(), c->padding_bottom(),
        c->padding_left(), c->kernel_height(), c->kernel_width(), c->subsampling_height(),
        c->subsampling_width(), c->dilation_height(), c->dilation_width(), c->groups(),
        c->group_input_channels(), c->group_output_channels(), lo, hi, in, filter, bias, out, 0);
  } else if (d.type == XNodeUnion::XNNDepthwiseConv2d) {
    // Upstream's convention: depth multiplier = group_output_channels, channels = groups.
    fn = "xnn_define_depthwise_convolution_2d";
    st = xnn_define_depthwise_convolution_2d(
        ctx.subgraph, c->padding_top(), c->padding_right(), c->padding_bottom(),
        c->padding_left(), c->kernel_height(), c->kernel_width(), c->subsampling_height(),
        c->subsampling_width(), c->dilation_height(), c->dilation_width(),
        c->group_output_channels(), c->groups(), lo, hi, in, filter, bias, out, 0);
  } else {
    fn = "xnn_define_deconvolution_2d";
    st = xnn_define_deconvolution_2d(
        ctx.subgraph, c->padding_top(), c->padding_right(), c->padding_bottom(),
        c->padding_left(), c->adjustment_height(), c->adjustment_width(), c->kernel_height(),
        c->kernel_width(), c->subsampling_height(), c->subsampling_width(),
        c->dilation_height(), c->dilation_width(), c->groups(), c->group_input_channels(),
        c->group_output_channels(), lo, hi, in, filter, bias, out, 0);
  }
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

}  // namespace ember::backends::xnnpack
