// Grouped16Stage: see grouped16_stage.h.
#include "backends/xnnpack/runtime/grouped16_stage.h"

#include "backends/xnnpack/runtime/grouped16_conv.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;
using runtime::fail;

namespace {

}  // namespace

Error prepare_grouped16_convs(GraphModel* m, runtime::MemoryAllocator* allocator, bool enabled) {
  if (!enabled || !grouped16_vectorized()) return Error::Ok;
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc& d = m->nodes[i];
    if (d.runner != NodeRunner::Subgraph || d.type != XNodeUnion::XNNConv2d || d.num_inputs < 2) continue;
    const auto* c = conv_of(d);
    if (c == nullptr || c->groups() < 2 || c->group_input_channels() != 16 || c->group_output_channels() != 16 ||
        c->dilation_height() != 1 || c->dilation_width() != 1 || c->flags() != 0 ||
        c->kernel_height() * c->kernel_width() > 25) {
      continue;
    }
    if (d.inputs[0] == kInvalidId || d.inputs[1] == kInvalidId || d.outputs[0] == kInvalidId) continue;
    const ValueInfo& in = m->values[d.inputs[0]];
    const ValueInfo& w = m->values[d.inputs[1]];
    const ValueInfo& out = m->values[d.outputs[0]];
    const uint32_t g = c->groups(), kh = c->kernel_height(), kw = c->kernel_width();
    if (!is_plain_f32(in) || !is_plain_f32(w) || !is_plain_f32(out) || w.data == nullptr || !float_aligned(w.data) || in.data != nullptr) continue;
    if (w.data_size / sizeof(float) < size_t{g} * 16 * kh * kw * 16) continue;
    if (d.num_inputs > 2 && d.inputs[2] != kInvalidId) {
      const ValueInfo& b = m->values[d.inputs[2]];
      if (!is_plain_f32(b) || b.data == nullptr || !float_aligned(b.data) || b.data_size < size_t{g} * 16 * sizeof(float)) continue;
    }
    float* packed = allocator->allocate_list<float>(grouped16_packed_floats(g, kh, kw));
    if (packed == nullptr) continue;
    pack_grouped16_filter(static_cast<const float*>(w.data), g, kh, kw, packed);
    d.grouped16_filter = packed;
    d.runner = NodeRunner::Grouped16;
  }
  return Error::Ok;
}

Error check_grouped16(const GraphModel& m, uint32_t index, const Shape* shapes) {
  const NodeDesc& d = m.nodes[index];
  const auto* c = conv_of(d);
  const Shape& in = shapes[d.inputs[0]];
  const Shape& out = shapes[d.outputs[0]];
  const uint64_t channels = uint64_t{c->groups()} * 16;
  const bool ok = in.rank == 4 && out.rank == 4 && in.dims[0] == out.dims[0] && in.dims[3] == channels &&
                  out.dims[3] == channels && in.dims[1] <= UINT32_MAX && in.dims[2] <= UINT32_MAX &&
                  c->subsampling_height() != 0 && c->subsampling_width() != 0 &&
                  out.dims[1] == (in.dims[1] + c->padding_top() + c->padding_bottom() - c->kernel_height()) /
                                         c->subsampling_height() + 1 &&
                  out.dims[2] == (in.dims[2] + c->padding_left() + c->padding_right() - c->kernel_width()) /
                                         c->subsampling_width() + 1 &&
                  in.dims[1] + c->padding_top() + c->padding_bottom() >= c->kernel_height() &&
                  in.dims[2] + c->padding_left() + c->padding_right() >= c->kernel_width();
  if (!ok) {
    return fail(Error::InvalidArgument,
                "XNNPACK node %u (XNNConv2d, groups of 16): input [%llu, %llu, %llu, %llu] does not give "
                "output [%llu, %llu, %llu, %llu]",
                index, (unsigned long long)in.dims[0], (unsigned long long)in.dims[1],
                (unsigned long long)in.dims[2], (unsigned long long)in.dims[3], (unsigned long long)out.dims[0],
                (unsigned long long)out.dims[1], (unsigned long long)out.dims[2], (unsigned long long)out.dims[3]);
  }
  return Error::Ok;
}

Error run_grouped16(const GraphModel& m, uint32_t index, const Shape* shapes, void* const* data) {
  const NodeDesc& d = m.nodes[index];
  const auto* c = conv_of(d);
  const Shape& in = shapes[d.inputs[0]];
  const Shape& out = shapes[d.outputs[0]];
  Grouped16ConvShape s;
  s.batch = uint32_t(in.dims[0]);
  s.in_h = uint32_t(in.dims[1]);
  s.in_w = uint32_t(in.dims[2]);
  s.groups = c->groups();
  s.kernel_h = c->kernel_height();
  s.kernel_w = c->kernel_width();
  s.stride_h = c->subsampling_height();
  s.stride_w = c->subsampling_width();
  s.pad_top = c->padding_top();
  s.pad_left = c->padding_left();
  s.out_h = uint32_t(out.dims[1]);
  s.out_w = uint32_t(out.dims[2]);
  const float* bias = d.num_inputs > 2 && d.inputs[2] != kInvalidId
                          ? static_cast<const float*>(m.values[d.inputs[2]].data)
                          : nullptr;
  grouped16_conv(s, static_cast<const float*>(data[d.inputs[0]]), d.grouped16_filter, bias, d.output_min,
                 d.output_max, static_cast<float*>(data[d.outputs[0]]));
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
