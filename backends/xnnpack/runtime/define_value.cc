// define_value(): one XValue as an XNNPACK tensor value: plain, per-tensor
// quantized, or channelwise quantized. Datatypes and quantization schemes this
// XNNPACK lacks (fp16 activations, int4, dynamic or blockwise quantization)
// fail here or in the node that uses them, always with a named error.
#include "backends/xnnpack/runtime/define_node.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNNDatatype;
using runtime::Error;

bool to_xnn_datatype(XNNDatatype t, xnn_datatype* out) {
  switch (t) {
    case XNNDatatype::xnn_datatype_fp32: *out = xnn_datatype_fp32; return true;
    case XNNDatatype::xnn_datatype_fp16: *out = xnn_datatype_fp16; return true;
    case XNNDatatype::xnn_datatype_qint8: *out = xnn_datatype_qint8; return true;
    case XNNDatatype::xnn_datatype_quint8: *out = xnn_datatype_quint8; return true;
    case XNNDatatype::xnn_datatype_qint32: *out = xnn_datatype_qint32; return true;
    case XNNDatatype::xnn_datatype_qcint8: *out = xnn_datatype_qcint8; return true;
    case XNNDatatype::xnn_datatype_qcint32: *out = xnn_datatype_qcint32; return true;
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
      st = xnn_define_channelwise_quantized_tensor_value(sg, dt, v.channel_scales, shape.rank,
                                                         v.channel_dim, shape.dims, v.data,
                                                         external_id, flags, xnn_id);
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
