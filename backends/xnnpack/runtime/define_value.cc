// define_value(): one XValue as an XNNPACK tensor value: plain, per-tensor quantized,
// channelwise quantized (qcint8, qcint32, and qcint4 with zero point 8), blockwise quantized
// (qbint4, zero point 8, bf16 scales) or dynamically quantized (qdint8). A combination
// XNNPACK rejects fails here or in the node that uses it, always with a named error.
//
// 4-bit weights are stored as upstream's exporter writes them: value + 8 (0..15), two per
// byte, the even element of each pair in the low nibble; XNNPACK's zero point 8 undoes the
// offset.
#include "backends/xnnpack/runtime/define_node.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNNDatatype;
using runtime::Error;

constexpr int32_t kInt4ZeroPoint = 8;

bool to_xnn_datatype(XNNDatatype t, xnn_datatype* out) {
  switch (t) {
    case XNNDatatype::xnn_datatype_fp32: *out = xnn_datatype_fp32; return true;
    case XNNDatatype::xnn_datatype_fp16: *out = xnn_datatype_fp16; return true;
    case XNNDatatype::xnn_datatype_qint8: *out = xnn_datatype_qint8; return true;
    case XNNDatatype::xnn_datatype_quint8: *out = xnn_datatype_quint8; return true;
    case XNNDatatype::xnn_datatype_qint32: *out = xnn_datatype_qint32; return true;
    case XNNDatatype::xnn_datatype_qcint8: *out = xnn_datatype_qcint8; return true;
    case XNNDatatype::xnn_datatype_qcint32: *out = xnn_datatype_qcint32; return true;
    case XNNDatatype::xnn_datatype_qcint4:
      *out = xnn_datatype_qcint4;
      return true;
    case XNNDatatype::xnn_datatype_qdint8:
      *out = xnn_datatype_qdint8;
      return true;
    case XNNDatatype::xnn_datatype_qbint4:
      *out = xnn_datatype_qbint4;
      return true;
    default: return false;
  }
}

}  // namespace

Error define_value(xnn_subgraph_t sg, const GraphModel& m, uint32_t id, const Shape& shape,
                   uint32_t external_id, uint32_t flags, uint32_t* xnn_id) {
  const ValueInfo& v = m.values[id];
  xnn_datatype dt;
  if (!to_xnn_datatype(v.datatype, &dt)) {
    return runtime::fail(Error::NotSupported,
                         "XNNPACK value %u: datatype %s is not supported by this XNNPACK version",
                         id, datatype_name(v.datatype));
  }
  xnn_status st = xnn_status_success;
  switch (v.quant) {
    case QuantKind::None:
      st = xnn_define_tensor_value(sg, dt, shape.rank, shape.dims, v.data, external_id, flags,
                                   xnn_id);
      break;
    case QuantKind::PerTensor:
      st = xnn_define_quantized_tensor_value(sg, dt, v.zero_point, v.scale, shape.rank,
                                             shape.dims, v.data, external_id, flags, xnn_id);
      break;
    case QuantKind::PerChannel:
      st = xnn_define_channelwise_quantized_tensor_value_v2(
          sg, dt, dt == xnn_datatype_qcint4 ? kInt4ZeroPoint : 0, v.channel_scales, shape.rank,
          v.channel_dim, shape.dims, v.data, external_id, flags, xnn_id);
      break;
    case QuantKind::Blockwise:
      st = xnn_define_blockwise_quantized_tensor_value(
          sg, dt, kInt4ZeroPoint, v.block_scales, shape.rank, v.channel_dim, v.block_size,
          shape.dims, v.data, external_id, flags, xnn_id);
      break;
    case QuantKind::PerTokenDynamic:
      st = xnn_define_dynamically_quantized_tensor_value(sg, dt, shape.rank, v.num_nonbatch_dims,
                                                         shape.dims, external_id, flags, xnn_id);
      break;
    case QuantKind::Unsupported:
      return runtime::fail(Error::NotSupported,
                           "XNNPACK value %u: quantization %s is not supported by this XNNPACK "
                           "version", id, v.quant_name);
  }
  if (st != xnn_status_success) {
    return runtime::fail(Error::NotSupported,
                         "XNNPACK value %u: defining a %s tensor of rank %u failed with %s", id,
                         datatype_name(v.datatype), shape.rank, xnn_status_name(st));
  }
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
