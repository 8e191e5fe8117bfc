#include "backends/xnnpack/runtime/blocked_conv.h"

#include <cpuinfo.h>

#include <cmath>
#include <cstring>

#include "backends/xnnpack/runtime/paired_conv.h"

namespace ember::backends::xnnpack {

using fb_xnnpack::XNNDatatype;
using fb_xnnpack::XNodeUnion;
using runtime::Error;

uint64_t l2_cache_bytes() {
  if (!cpuinfo_initialize()) return 0;
  const cpuinfo_cache* l2 = cpuinfo_get_l2_cache(0);
  return l2 == nullptr ? 0 : l2->size;
}

uint32_t conv_blocks(uint64_t filter_bytes, uint32_t co, uint32_t nr, uint64_t l2) {
  if (l2 == 0 || nr == 0 || filter_bytes <= l2) return 1;
  // Groups may not add tile work: G groups of CO / G outputs, each rounded up to the tile
  // width, must cover as many tiles as CO does (1000 = 8 x 125: 8 x 4 tiles of 32 = 32 tiles).
  const uint32_t tiles = (co + nr - 1) / nr;
  uint32_t best = 1;
  for (uint32_t g = 2; g <= tiles; ++g) {
    if (co % g != 0 || g * ((co / g + nr - 1) / nr) != tiles) continue;
    best = g;
    if (4 * (filter_bytes / g) <= 3 * l2) break;
  }
  // XNNPACK keys packed convolution weights by {groups ^ group_input_channels ^
  // group_output_channels ^ nr ^ ..., filter pointer, bias pointer}: the two forms of one
  // filter must not share a key (the input channels and the rest are the same in both).
  if (best > 1 && (1u ^ co) == (best ^ (co / best))) return 1;
  return best;
}

namespace {

}  // namespace

Error prepare_blocked_convs(GraphModel* m, runtime::MemoryAllocator* allocator) {
  const uint32_t nr = f32_gemm_tile_width();
  const uint64_t l2 = l2_cache_bytes();
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc& d = m->nodes[i];
    if (d.type != XNodeUnion::XNNConv2d || d.runner != NodeRunner::Subgraph) continue;
    if (d.paired_filter != nullptr) continue;  // few channels: paired_conv.h's case
    const auto* c = conv_of(d);
    if (c->groups() != 1) continue;
    const uint32_t co = c->group_output_channels(), ci = c->group_input_channels();
    const uint32_t kh = c->kernel_height(), kw = c->kernel_width();
    if (co == 0 || ci == 0 || kh == 0 || kw == 0) continue;
    if (d.inputs[0] == kInvalidId || d.inputs[1] == kInvalidId) continue;
    const ValueInfo& in = m->values[d.inputs[0]];
    const ValueInfo& w = m->values[d.inputs[1]];
    const ValueInfo& out = m->values[d.outputs[0]];
    if (!is_plain_f32(in) || !is_plain_f32(w) || !is_plain_f32(out) || w.data == nullptr) continue;
    // The grouped form reads the same filter bytes with CO / G outputs per group: they must be
    // the node's own [CO][kh][kw][C] (XNNPACK names any mismatch when it defines the plain one).
    if (w.rank != 4 || w.dims[0] != co || w.dims[1] != kh || w.dims[2] != kw || w.dims[3] != ci) {
      continue;
    }
    if (d.inputs[2] != kInvalidId) {
      const ValueInfo& b = m->values[d.inputs[2]];
      if (!is_plain_f32(b) || b.data == nullptr) continue;
    }
    // XNNPACK's packed filter: CO rounded to the tile, each with kh kw C weights and a bias.
    const uint64_t rows = (uint64_t{co} + nr - 1) / nr * nr;
    const uint64_t bytes = rows * (uint64_t{kh} * kw * ci + 1) * sizeof(float);
    const uint32_t g = conv_blocks(bytes, co, nr, l2);
    if (g <= 1) continue;
    float* zeros = allocator->allocate_list<float>(size_t{g} * ci);
    // An optimization only: a method allocator too small for the zeros keeps the plain form.
    if (zeros == nullptr) continue;
    std::memset(zeros, 0, size_t{g} * ci * sizeof(float));
    d.conv_blocks = g;
    d.block_zeros = zeros;
  }
  return Error::Ok;
}

Error define_blocked_conv(const DefineContext& ctx, uint32_t index, bool* used) {
  *used = false;
  const NodeDesc& d = ctx.model->nodes[index];
  if (d.conv_blocks <= 1 || d.block_zeros == nullptr) return Error::Ok;
  const Shape& is = ctx.shapes[d.inputs[0]];
  const Shape& os = ctx.shapes[d.outputs[0]];
  const auto* c = conv_of(d);
  const size_t g = d.conv_blocks, co = c->group_output_channels(), ci = c->group_input_channels();
  if (is.rank != 4 || os.rank != 4 || is.dims[3] != ci || os.dims[3] != co) return Error::Ok;
  // One row tile (at most 7 output pixels on every XNNPACK f32 config) reads the filter once
  // either way; the input copies must stay small next to the filter reads they save.
  const size_t pixels = os.dims[0] * os.dims[1] * os.dims[2];
  const size_t copies = g * is.numel();
  const size_t filter = co * c->kernel_height() * c->kernel_width() * ci;
  if (pixels <= 8 || 2 * copies > filter) return Error::Ok;

  xnn_subgraph_t sg = ctx.subgraph;
  const auto fail_at = [&](const char* fn, xnn_status st) {
    return define_failed(ctx, index, fn, st);
  };
  const size_t n = is.dims[0], h = is.dims[1], w = is.dims[2];
  const size_t x5_dims[5] = {n, h, w, 1, ci};
  const size_t z_dims[2] = {g, ci};
  const size_t rep_dims[5] = {n, h, w, g, ci};
  const size_t wide_dims[4] = {n, h, w, g * ci};
  uint32_t x5, zeros, rep, wide;
  xnn_status st = define_internal_f32(sg, x5_dims, 5, nullptr, &x5);
  if (st == xnn_status_success) st = define_internal_f32(sg, z_dims, 2, d.block_zeros, &zeros);
  if (st == xnn_status_success) st = define_internal_f32(sg, rep_dims, 5, nullptr, &rep);
  if (st == xnn_status_success) st = define_internal_f32(sg, wide_dims, 4, nullptr, &wide);
  if (st != xnn_status_success) return fail_at("xnn_define_tensor_value", st);
  st = xnn_define_static_reshape(sg, 5, x5_dims, ctx.id(d.inputs[0]), x5, 0);
  if (st != xnn_status_success) return fail_at("xnn_define_static_reshape", st);
  const xnn_binary_params no_clamp = {-INFINITY, INFINITY};
  st = xnn_define_binary(sg, xnn_binary_add, &no_clamp, x5, zeros, rep, 0);
  if (st != xnn_status_success) return fail_at("xnn_define_binary", st);
  st = xnn_define_static_reshape(sg, 4, wide_dims, rep, wide, 0);
  if (st != xnn_status_success) return fail_at("xnn_define_static_reshape", st);
  st = xnn_define_convolution_2d(sg, c->padding_top(), c->padding_right(), c->padding_bottom(),
                                 c->padding_left(), c->kernel_height(), c->kernel_width(),
                                 c->subsampling_height(), c->subsampling_width(),
                                 c->dilation_height(), c->dilation_width(), uint32_t(g),
                                 uint32_t(ci), uint32_t(co / g), d.output_min, d.output_max, wide,
                                 ctx.id(d.inputs[1]), ctx.id(d.inputs[2]), ctx.id(d.outputs[0]), 0);
  if (st != xnn_status_success) return fail_at("xnn_define_convolution_2d", st);
  *used = true;
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
