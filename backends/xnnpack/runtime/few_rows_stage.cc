// FewRowsStage: see few_rows_stage.h.
#include "backends/xnnpack/runtime/few_rows_stage.h"

#include "backends/xnnpack/runtime/few_rows_gemm.h"
#include "backends/xnnpack/schema/xnnpack_graph_generated.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

namespace {

// Rows XNNPACK's 7-row tiles serve badly and one or two passes of few_rows_gemm serve well.
bool rows_pay(uint64_t rows) { return rows >= 2 && rows <= 16 && rows % 7 != 0; }

}  // namespace

Error prepare_few_rows_convs(GraphModel* m, runtime::MemoryAllocator* allocator, bool enabled) {
  if (!enabled || !few_rows_vectorized()) return Error::Ok;
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc& d = m->nodes[i];
    if (d.runner != NodeRunner::Subgraph || d.type != XNodeUnion::XNNConv2d || d.num_inputs < 2) continue;
    const auto* c = conv_of(d);
    if (c == nullptr || c->groups() != 1 || c->kernel_height() != 1 || c->kernel_width() != 1 ||
        c->subsampling_height() != 1 || c->subsampling_width() != 1 || c->dilation_height() != 1 ||
        c->dilation_width() != 1 || c->padding_top() != 0 || c->padding_bottom() != 0 ||
        c->padding_left() != 0 || c->padding_right() != 0 || c->flags() != 0) {
      continue;
    }
    if (d.inputs[0] == kInvalidId || d.inputs[1] == kInvalidId || d.outputs[0] == kInvalidId) continue;
    const ValueInfo& in = m->values[d.inputs[0]];
    const ValueInfo& w = m->values[d.inputs[1]];
    const ValueInfo& out = m->values[d.outputs[0]];
    const uint32_t k = c->group_input_channels(), n = c->group_output_channels();
    if (!is_plain_f32(in) || !is_plain_f32(w) || !is_plain_f32(out) || w.data == nullptr || !float_aligned(w.data) || in.data != nullptr) continue;
    if (out.rank != 4 || in.rank != 4 || in.dims[3] != k || out.dims[3] != n || k == 0 || n == 0) continue;
    if (!rows_pay(uint64_t{out.dims[0]} * out.dims[1] * out.dims[2])) continue;
    if (w.data_size / sizeof(float) < size_t{n} * k) continue;
    if (d.num_inputs > 2 && d.inputs[2] != kInvalidId) {
      const ValueInfo& b = m->values[d.inputs[2]];
      if (!is_plain_f32(b) || b.data == nullptr || !float_aligned(b.data) || b.data_size < size_t{n} * sizeof(float)) continue;
    }
    float* packed = allocator->allocate_list<float>(few_rows_packed_floats(n, k));
    if (packed == nullptr) continue;
    pack_few_rows_filter(static_cast<const float*>(w.data), n, k, packed);
    d.few_rows_filter = packed;
    d.runner = NodeRunner::FewRows;
  }
  return Error::Ok;
}

bool few_rows_applies(const GraphModel& m, uint32_t index, const Shape* shapes) {
  const NodeDesc& d = m.nodes[index];
  if (d.few_rows_filter == nullptr) return false;
  const auto* c = conv_of(d);
  const Shape& in = shapes[d.inputs[0]];
  const Shape& out = shapes[d.outputs[0]];
  return in.rank == 4 && out.rank == 4 && in.dims[0] == out.dims[0] && in.dims[1] == out.dims[1] &&
         in.dims[2] == out.dims[2] && in.dims[3] == c->group_input_channels() &&
         out.dims[3] == c->group_output_channels() && rows_pay(uint64_t{out.dims[0]} * out.dims[1] * out.dims[2]);
}

Error run_few_rows(const GraphModel& m, uint32_t index, const Shape* shapes, void* const* data) {
  const NodeDesc& d = m.nodes[index];
  const auto* c = conv_of(d);
  const Shape& out = shapes[d.outputs[0]];
  const uint32_t rows = uint32_t(out.dims[0] * out.dims[1] * out.dims[2]);
  const uint32_t k = c->group_input_channels(), n = c->group_output_channels();
  const float* bias = d.num_inputs > 2 && d.inputs[2] != kInvalidId
                          ? static_cast<const float*>(m.values[d.inputs[2]].data)
                          : nullptr;
  const float* x = static_cast<const float*>(data[d.inputs[0]]);
  float* y = static_cast<float*>(data[d.outputs[0]]);
  const uint32_t passes = (rows + kFewRowsMax - 1) / kFewRowsMax;
  const uint32_t per_pass = (rows + passes - 1) / passes;
  for (uint32_t r0 = 0; r0 < rows; r0 += per_pass) {
    const uint32_t mr = rows - r0 < per_pass ? rows - r0 : per_pass;
    few_rows_gemm(mr, n, k, x + size_t{r0} * k, k, d.few_rows_filter, bias, d.output_min, d.output_max,
                  y + size_t{r0} * n, n);
  }
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
