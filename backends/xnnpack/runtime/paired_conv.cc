#include "backends/xnnpack/runtime/paired_conv.h"

#include <cpuinfo.h>

#include <cmath>
#include <cstring>

namespace ember::backends::xnnpack {

using fb_xnnpack::XNNDatatype;
using fb_xnnpack::XNodeUnion;
using runtime::Error;

uint32_t f32_gemm_tile_width() {
#if defined(__x86_64__) || defined(__i386__)
  // XNNPACK 2024-11's f32 GEMM config (src/configs/gemm-config.c): 7x32 with AVX-512F,
  // 5x16 or 4x16 with FMA3/AVX, 4x8 with SSE; cpuinfo is what XNNPACK itself asks.
  if (!cpuinfo_initialize()) return 8;
  if (cpuinfo_has_x86_avx512f()) return 32;
  if (cpuinfo_has_x86_fma3() || cpuinfo_has_x86_avx()) return 16;
  return 8;
#else
  return 8;  // Arm: 6x8, 4x8 and 1x8 kernels
#endif
}

namespace {

uint32_t round_up(uint32_t n, uint32_t q) { return (n + q - 1) / q * q; }

}  // namespace

PairedGeometry paired_geometry(uint32_t kernel_width, uint32_t output_channels, uint32_t nr) {
  PairedGeometry g;
  g.kernel_width = kernel_width / 2 + 1;
  // Tile work per pixel pair and input channel, per kernel row: the original runs kw taps for
  // each of the two pixels (2 kw roundup(CO, nr)), the paired form kw' taps of 2 channels for
  // the pair (2 kw' roundup(2 CO, nr)).
  const uint64_t paired = uint64_t{g.kernel_width} * round_up(2 * output_channels, nr);
  const uint64_t original = uint64_t{kernel_width} * round_up(output_channels, nr);
  g.pays = output_channels > 0 && 5 * paired <= 4 * original;
  return g;
}

void pair_filter(const float* filter, uint32_t co, uint32_t kh, uint32_t kw, uint32_t c,
                 float* paired) {
  const uint32_t kw2 = kw / 2 + 1;
  for (uint32_t q = 0; q < 2; ++q) {
    for (uint32_t o = 0; o < co; ++o) {
      for (uint32_t ky = 0; ky < kh; ++ky) {
        for (uint32_t kc = 0; kc < kw2; ++kc) {
          for (uint32_t r = 0; r < 2; ++r) {
            // Input pixel 2 (j - pad') + 2 kc + r against output pixel 2 j - s + q: original
            // tap dx = 2 kc + r - q (2 pad' = s + pad_left).
            float* dst = paired + ((((size_t{q} * co + o) * kh + ky) * kw2 + kc) * 2 + r) * c;
            const int64_t dx = int64_t{2} * kc + r - q;
            if (dx < 0 || dx >= int64_t{kw}) {
              std::memset(dst, 0, size_t{c} * sizeof(float));
            } else {
              std::memcpy(dst, filter + ((size_t{o} * kh + ky) * kw + size_t(dx)) * c,
                          size_t{c} * sizeof(float));
            }
          }
        }
      }
    }
  }
}

Error prepare_paired_convs(GraphModel* m, runtime::MemoryAllocator* allocator) {
  const uint32_t nr = f32_gemm_tile_width();
  for (uint32_t i = 0; i < m->num_nodes; ++i) {
    NodeDesc& d = m->nodes[i];
    if (d.type != XNodeUnion::XNNConv2d || d.runner != NodeRunner::Subgraph) continue;
    const auto* c = conv_of(d);
    if (c->groups() != 1 || c->subsampling_width() != 1 || c->dilation_width() != 1) continue;
    const uint32_t co = c->group_output_channels(), ci = c->group_input_channels();
    const uint32_t kh = c->kernel_height(), kw = c->kernel_width();
    if (!paired_geometry(kw, co, nr).pays || ci == 0 || kh == 0) continue;
    // Ordinary ("same" or "valid") horizontal padding only: larger paddings stay with XNNPACK's
    // own checks of the plain convolution.
    if (c->padding_left() >= kw || c->padding_right() >= kw) continue;
    if (d.inputs[0] == kInvalidId || d.inputs[1] == kInvalidId) continue;
    const ValueInfo& in = m->values[d.inputs[0]];
    const ValueInfo& w = m->values[d.inputs[1]];
    const ValueInfo& out = m->values[d.outputs[0]];
    if (!is_plain_f32(in) || !is_plain_f32(w) || !is_plain_f32(out) || w.data == nullptr) continue;
    // Dims from an untrusted payload: the filter's element count must not wrap.
    size_t numel = size_t{co} * kh;  // both below 2^32
    if (w.rank != 4 || w.dims[0] != co || w.dims[1] != kh || w.dims[2] != kw || w.dims[3] != ci ||
        __builtin_mul_overflow(numel, size_t{kw}, &numel) ||
        __builtin_mul_overflow(numel, size_t{ci}, &numel) || numel > w.data_size / sizeof(float)) {
      continue;  // XNNPACK names the mismatch when it defines the plain convolution
    }
    const bool has_bias = d.inputs[2] != kInvalidId;
    if (has_bias) {
      const ValueInfo& b = m->values[d.inputs[2]];
      if (!is_plain_f32(b) || b.data == nullptr || b.data_size < size_t{co} * sizeof(float)) {
        continue;
      }
    }
    const uint32_t kw2 = kw / 2 + 1;
    const size_t n = size_t{2} * co * kh * kw2 * 2 * ci;  // at most 4 x numel (kw2 <= kw)
    float* pf = allocator->allocate_list<float>(n);
    float* pb = has_bias ? allocator->allocate_list<float>(size_t{2} * co) : nullptr;
    // An optimization only: a method allocator too small for the paired copy keeps the plain
    // convolution rather than failing a program that ran before.
    if (pf == nullptr || (has_bias && pb == nullptr)) continue;
    pair_filter(static_cast<const float*>(w.data), co, kh, kw, ci, pf);
    if (has_bias) {
      const float* b = static_cast<const float*>(m->values[d.inputs[2]].data);
      std::memcpy(pb, b, size_t{co} * sizeof(float));
      std::memcpy(pb + co, b, size_t{co} * sizeof(float));
    }
    d.paired_filter = pf;
    d.paired_bias = pb;
  }
  return Error::Ok;
}

Error define_paired_conv(const DefineContext& ctx, uint32_t index, bool* used) {
  *used = false;
  const NodeDesc& d = ctx.model->nodes[index];
  if (d.paired_filter == nullptr) return Error::Ok;
  const Shape& is = ctx.shapes[d.inputs[0]];
  const Shape& os = ctx.shapes[d.outputs[0]];
  if (is.rank != 4 || os.rank != 4 || is.dims[2] % 2 != 0 || is.dims[2] == 0) return Error::Ok;
  const auto* c = conv_of(d);
  const size_t co = c->group_output_channels(), ci = c->group_input_channels();
  const uint32_t kh = c->kernel_height(), kw = c->kernel_width(), kw2 = kw / 2 + 1;
  const uint32_t pl = c->padding_left(), s = pl % 2, pl2 = (s + pl) / 2;
  const size_t w = is.dims[2], ow = os.dims[2], wp = w / 2, owp = (ow + s + 1) / 2;
  // Right padding of the pair grid so that it yields owp pairs: wp + pl2 + pr2 - kw2 + 1 = owp.
  const int64_t pr2 = int64_t(owp) - int64_t(wp) - pl2 + kw2 - 1;
  if (ow == 0 || is.dims[3] != ci || os.dims[3] != co || pr2 < 0) return Error::Ok;

  xnn_subgraph_t sg = ctx.subgraph;
  const auto fail_at = [&](const char* fn, xnn_status st) {
    return define_failed(ctx, index, fn, st);
  };
  uint32_t pairs_in, filter, bias = XNN_INVALID_VALUE_ID, pairs_out, pixels_out;
  const size_t in_dims[4] = {is.dims[0], is.dims[1], wp, 2 * ci};
  const size_t f_dims[4] = {2 * co, kh, kw2, 2 * ci};
  const size_t b_dims[1] = {2 * co};
  const size_t po_dims[4] = {os.dims[0], os.dims[1], owp, 2 * co};
  const size_t px_dims[4] = {os.dims[0], os.dims[1], 2 * owp, co};
  xnn_status st = define_internal_f32(sg, in_dims, 4, nullptr, &pairs_in);
  if (st == xnn_status_success) st = define_internal_f32(sg, f_dims, 4, d.paired_filter, &filter);
  if (st == xnn_status_success && d.paired_bias != nullptr) {
    st = define_internal_f32(sg, b_dims, 1, d.paired_bias, &bias);
  }
  if (st == xnn_status_success) st = define_internal_f32(sg, po_dims, 4, nullptr, &pairs_out);
  if (st != xnn_status_success) return fail_at("xnn_define_tensor_value", st);
  st = xnn_define_static_reshape(sg, 4, in_dims, ctx.id(d.inputs[0]), pairs_in, 0);
  if (st != xnn_status_success) return fail_at("xnn_define_static_reshape", st);
  st = xnn_define_convolution_2d(sg, c->padding_top(), uint32_t(pr2), c->padding_bottom(), pl2, kh,
                                 kw2, c->subsampling_height(), 1, c->dilation_height(), 1, 1,
                                 2 * ci, 2 * co, d.output_min, d.output_max, pairs_in, filter, bias,
                                 pairs_out, 0);
  if (st != xnn_status_success) return fail_at("xnn_define_convolution_2d", st);
  const uint32_t out = ctx.id(d.outputs[0]);
  if (s == 0 && 2 * owp == ow) {
    st = xnn_define_static_reshape(sg, 4, os.dims, pairs_out, out, 0);
    if (st != xnn_status_success) return fail_at("xnn_define_static_reshape", st);
  } else {
    st = define_internal_f32(sg, px_dims, 4, nullptr, &pixels_out);
    if (st != xnn_status_success) return fail_at("xnn_define_tensor_value", st);
    st = xnn_define_static_reshape(sg, 4, px_dims, pairs_out, pixels_out, 0);
    if (st != xnn_status_success) return fail_at("xnn_define_static_reshape", st);
    const size_t offsets[4] = {0, 0, s, 0};
    st = xnn_define_static_slice(sg, 4, offsets, os.dims, pixels_out, out, 0);
    if (st != xnn_status_success) return fail_at("xnn_define_static_slice", st);
  }
  *used = true;
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
