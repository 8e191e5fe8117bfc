// Pooling nodes: max, average, argmax and global average pooling (NHWC).
#include <cmath>

#include "backends/xnnpack/runtime/define_node.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

Error define_pooling(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  const uint32_t in = ctx.id(d.inputs[0]), out = ctx.id(d.outputs[0]);
  const float lo = d.output_min, hi = d.output_max;
  *handled = true;
  xnn_status st;
  const char* fn;
  switch (d.type) {
    case XNodeUnion::XNNGlobalAvgPooling2d: {
      // A mean over H and W of NHWC that keeps the [N, 1, 1, C] shape, then the output clamp
      // (if any) as its own node over an internal value.
      const size_t axes[2] = {1, 2};
      const bool clamps = !(std::isinf(lo) && lo < 0 && std::isinf(hi) && hi > 0);
      uint32_t mean_out = out;
      if (clamps) {
        const uint32_t v = d.outputs[0];
        EMBER_TRY(define_value(ctx.subgraph, *ctx.model, v, ctx.shapes[v], XNN_INVALID_VALUE_ID, 0,
                               &mean_out));
      }
      fn = "xnn_define_static_reduce";
      st = xnn_define_static_reduce(ctx.subgraph, xnn_reduce_mean, 2, axes, in, mean_out,
                                    XNN_FLAG_KEEP_DIMS);
      if (st == xnn_status_success && clamps) {
        xnn_unary_params params = {};
        params.clamp.min = lo;
        params.clamp.max = hi;
        fn = "xnn_define_unary";
        st = xnn_define_unary(ctx.subgraph, xnn_unary_clamp, &params, mean_out, out, 0);
      }
      break;
    }
    case XNodeUnion::XNNMaxPooling2d:
    case XNodeUnion::XNNAvgPooling2d: {
      const auto* p = static_cast<const fb_xnnpack::_XNNPooling2D*>(d.node->xnode_union());
      if (d.type == XNodeUnion::XNNMaxPooling2d) {
        fn = "xnn_define_max_pooling_2d";
        st = xnn_define_max_pooling_2d(
            ctx.subgraph, p->padding_top(), p->padding_right(), p->padding_bottom(),
            p->padding_left(), p->pooling_height(), p->pooling_width(), p->stride_height(),
            p->stride_width(), p->dilation_height() == 0 ? 1 : p->dilation_height(),
            p->dilation_width() == 0 ? 1 : p->dilation_width(), lo, hi, in, out, 0);
      } else {
        fn = "xnn_define_average_pooling_2d";
        st = xnn_define_average_pooling_2d(
            ctx.subgraph, p->padding_top(), p->padding_right(), p->padding_bottom(),
            p->padding_left(), p->pooling_height(), p->pooling_width(), p->stride_height(),
            p->stride_width(), lo, hi, in, out, 0);
      }
      break;
    }
    case XNodeUnion::XNNArgMaxPooling2d: {
      const auto* p = d.node->xnode_union_as_XNNArgMaxPooling2d();
      fn = "xnn_define_argmax_pooling_2d";
      st = xnn_define_argmax_pooling_2d(ctx.subgraph, p->padding_top(), p->padding_right(),
                                        p->padding_bottom(), p->padding_left(),
                                        p->pooling_height(), p->pooling_width(), in, out,
                                        ctx.id(d.outputs[1]), 0);
      break;
    }
    default:
      *handled = false;
      return Error::NotSupported;
  }
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

}  // namespace ember::backends::xnnpack
