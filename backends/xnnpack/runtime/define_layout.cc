// Layout nodes XNNPACK's subgraph API has: static reshape (to the plan's shape,
// so bounded dynamic shapes work), constant pad and bilinear resize.
#include "backends/xnnpack/runtime/define_node.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

Error define_layout(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  const uint32_t in = ctx.id(d.inputs[0]), out = ctx.id(d.outputs[0]);
  *handled = true;
  xnn_status st;
  const char* fn;
  switch (d.type) {
    case XNodeUnion::XNNStaticReshape: {
      const Shape& s = ctx.shapes[d.outputs[0]];
      fn = "xnn_define_static_reshape";
      st = xnn_define_static_reshape(ctx.subgraph, s.rank, s.dims, in, out, 0);
      break;
    }
    case XNodeUnion::XNNStaticConstantPad: {
      const auto* p = d.node->xnode_union_as_XNNStaticConstantPad();
      size_t pre[kMaxDims] = {}, post[kMaxDims] = {};
      for (uint32_t i = 0; i < p->pre_paddings()->size(); ++i) {
        pre[i] = p->pre_paddings()->Get(i);
        post[i] = p->post_paddings()->Get(i);
      }
      fn = "xnn_define_static_constant_pad";
      st = xnn_define_static_constant_pad(ctx.subgraph, pre, post, p->padding_value(), in, out, 0);
      break;
    }
    case XNodeUnion::XNNStaticResizeBilinear2D: {
      const auto* r = d.node->xnode_union_as_XNNStaticResizeBilinear2D();
      fn = "xnn_define_static_resize_bilinear_2d";
      st = xnn_define_static_resize_bilinear_2d(ctx.subgraph, r->new_height(), r->new_width(), in,
                                                out, r->flags());
      break;
    }
    default:
      *handled = false;
      return Error::NotSupported;
  }
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

}  // namespace ember::backends::xnnpack
