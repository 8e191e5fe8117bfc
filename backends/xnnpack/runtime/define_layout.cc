// Layout nodes: static reshape (to the plan's shape, so bounded dynamic shapes work), constant
// pad, bilinear resize, transpose, slice (to the plan's output shape), concatenate of 2..5
// inputs and copy.
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
    case XNodeUnion::XNNStaticTranspose: {
      const auto* t = d.node->xnode_union_as_XNNStaticTranspose();
      size_t perm[kMaxDims] = {};
      const uint32_t rank = t->perm()->size();  // checked against the input by shape inference
      for (uint32_t i = 0; i < rank; ++i) perm[i] = t->perm()->Get(i);
      fn = "xnn_define_static_transpose";
      st = xnn_define_static_transpose(ctx.subgraph, rank, perm, in, out, 0);
      break;
    }
    case XNodeUnion::XNNStaticSlice: {
      const auto* sl = d.node->xnode_union_as_XNNStaticSlice();
      const Shape& s = ctx.shapes[d.outputs[0]];  // sizes of 0 ("to the end") resolved
      size_t offsets[kMaxDims] = {};
      for (uint32_t i = 0; i < s.rank; ++i) offsets[i] = sl->offsets()->Get(i);
      fn = "xnn_define_static_slice";
      st = xnn_define_static_slice(ctx.subgraph, s.rank, offsets, s.dims, in, out, 0);
      break;
    }
    case XNodeUnion::XNNConcatenate2:
    case XNodeUnion::XNNConcatenate3:
    case XNodeUnion::XNNConcatenate4:
    case XNodeUnion::XNNConcatenate5: {
      const int32_t axis =
          int32_t(static_cast<const fb_xnnpack::_XNNCat*>(d.node->xnode_union())->axis());
      uint32_t ids[kMaxNodeInputs];
      for (uint32_t k = 0; k < d.num_inputs; ++k) ids[k] = ctx.id(d.inputs[k]);
      switch (d.num_inputs) {
        case 2:
          fn = "xnn_define_concatenate2";
          st = xnn_define_concatenate2(ctx.subgraph, axis, ids[0], ids[1], out, 0);
          break;
        case 3:
          fn = "xnn_define_concatenate3";
          st = xnn_define_concatenate3(ctx.subgraph, axis, ids[0], ids[1], ids[2], out, 0);
          break;
        case 4:
          fn = "xnn_define_concatenate4";
          st = xnn_define_concatenate4(ctx.subgraph, axis, ids[0], ids[1], ids[2], ids[3], out, 0);
          break;
        default:
          fn = "xnn_define_concatenate5";
          st = xnn_define_concatenate5(ctx.subgraph, axis, ids[0], ids[1], ids[2], ids[3], ids[4],
                                       out, 0);
          break;
      }
      break;
    }
    case XNodeUnion::XNNCopy:
      fn = "xnn_define_copy";
      st = xnn_define_copy(ctx.subgraph, in, out, 0);
      break;
    default:
      *handled = false;
      return Error::NotSupported;
  }
  return st == xnn_status_success ? Error::Ok : define_failed(ctx, index, fn, st);
}

}  // namespace ember::backends::xnnpack
