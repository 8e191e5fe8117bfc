// Scaled-dot-product attention: XNNScaledDotProductAttention as XNNPACK's own operator
// (xnn_define_scaled_dot_product_attention, experimental in 0.0~git20241108): per head,
// softmax((query * scale) . key^T + mask) . value, with no logits cap. Shapes and the
// mask are checked by infer_node_shapes before this runs (shape_inference.cc).
#include "backends/xnnpack/runtime/define_node.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

Error define_attention(const DefineContext& ctx, uint32_t index, bool* handled) {
  const NodeDesc& d = ctx.model->nodes[index];
  if (d.type != XNodeUnion::XNNScaledDotProductAttention) {
    *handled = false;
    return Error::NotSupported;
  }
  *handled = true;
  const xnn_status st = xnn_define_scaled_dot_product_attention(
      ctx.subgraph, xnn_attention_logits_cap_type_none, /*cap_params=*/nullptr,
      ctx.id(d.inputs[0]), ctx.id(d.inputs[1]), ctx.id(d.inputs[2]), ctx.id(d.inputs[3]),
      ctx.id(d.inputs[4]), ctx.id(d.outputs[0]), /*flags=*/0);
  return st == xnn_status_success
             ? Error::Ok
             : define_failed(ctx, index, "xnn_define_scaled_dot_product_attention", st);
}

}  // namespace ember::backends::xnnpack
