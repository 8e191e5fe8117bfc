// Dispatch of a node to its family definer, and the shared error helpers.
#include "backends/xnnpack/runtime/define_node.h"

#include <cstdio>

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using runtime::Error;

const char* xnn_status_name(xnn_status status) {
  switch (status) {
    case xnn_status_success:
      return "success";
    case xnn_status_uninitialized:
      return "uninitialized";
    case xnn_status_invalid_parameter:
      return "invalid_parameter";
    case xnn_status_invalid_state:
      return "invalid_state";
    case xnn_status_unsupported_parameter:
      return "unsupported_parameter";
    case xnn_status_unsupported_hardware:
      return "unsupported_hardware";
    case xnn_status_out_of_memory:
      return "out_of_memory";
    case xnn_status_reallocation_required:
      return "reallocation_required";
    case xnn_status_deprecated:
      return "deprecated";
  }
  return "unknown";
}

xnn_status define_internal_f32(xnn_subgraph_t subgraph, const size_t* dims, size_t rank,
                               const void* data, uint32_t* xnn_id) {
  return xnn_define_tensor_value(subgraph, xnn_datatype_fp32, rank, dims, data,
                                 XNN_INVALID_VALUE_ID, 0, xnn_id);
}

Error define_failed(const DefineContext& ctx, uint32_t index, const char* function,
                    xnn_status status) {
  const NodeDesc& d = ctx.model->nodes[index];
  char types[160] = {};
  size_t used = 0;
  for (uint32_t k = 0; k < d.num_inputs + d.num_outputs && used < sizeof(types); ++k) {
    const bool is_in = k < d.num_inputs;
    const uint32_t v = is_in ? d.inputs[k] : d.outputs[k - d.num_inputs];
    if (v == kInvalidId) continue;
    const int n =
        std::snprintf(types + used, sizeof(types) - used, "%s%s %s", used == 0 ? "" : ", ",
                      is_in ? "in" : "out", datatype_name(ctx.model->values[v].datatype));
    if (n < 0) break;
    used += size_t(n);
  }
  return runtime::fail(
      Error::NotSupported,
      "XNNPACK node %u (%s): %s failed with %s; XNNPACK 0.0~git20241108 cannot run "
      "it with these datatypes (%s)",
      index, node_type_name(d.type), function, xnn_status_name(status), types);
}

Error define_node(const DefineContext& ctx, uint32_t index) {
  using Definer = Error (*)(const DefineContext&, uint32_t, bool*);
  static const Definer kFamilies[] = {define_elementwise, define_conv, define_pooling,
                                      define_layout, define_attention};
  for (Definer family : kFamilies) {
    bool handled = false;
    const Error e = family(ctx, index, &handled);
    if (handled) return e;
  }
  const NodeDesc& d = ctx.model->nodes[index];
  return runtime::fail(Error::NotSupported, "XNNPACK node %u (%s): no subgraph definer", index,
                       node_type_name(d.type));
}

}  // namespace ember::backends::xnnpack
