// Pooling nodes: max, average, argmax and global average pooling (NHWC).
#include "backends/xnnpack/runtime/define_node.h"

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
    case XNodeUnion::XNNGlobalAvgPooling2d:
      fn = "xnn_define_global_average_pooling_2d";
      st = xnn_define_global_average_pooling_2d(ctx.subgraph, lo, hi, in, out, 0);
      break;
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
