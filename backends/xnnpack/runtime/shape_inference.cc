// Output-shape rules per node family; see shape_inference.h.
#include "backends/xnnpack/runtime/shape_inference.h"

#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {
namespace {

using fb_xnnpack::XNodeUnion;
using runtime::Error;

Error bad(uint32_t index, const NodeDesc& d, const char* why) {
  return runtime::fail(Error::InvalidArgument, "XNNPACK node %u (%s): %s", index,
                       node_type_name(d.type), why);
}

Error broadcast(const Shape& a, const Shape& b, Shape* out) {
  out->rank = a.rank > b.rank ? a.rank : b.rank;
  for (uint32_t i = 0; i < out->rank; ++i) {
    const size_t da = i < out->rank - a.rank ? 1 : a.dims[i - (out->rank - a.rank)];
    const size_t db = i < out->rank - b.rank ? 1 : b.dims[i - (out->rank - b.rank)];
    if (da != db && da != 1 && db != 1) return Error::InvalidArgument;
    out->dims[i] = da == 1 ? db : da;
  }
  return Error::Ok;
}

size_t conv_out(size_t in, size_t pad, uint32_t kernel, uint32_t stride, uint32_t dilation) {
  const size_t eff = (size_t(kernel) - 1) * (dilation == 0 ? 1 : dilation) + 1;
  const size_t padded = in + pad;
  if (padded < eff || stride == 0) return 0;
  return (padded - eff) / stride + 1;
}

// The filter and bias must have exactly the shapes the conv parameters imply: XNNPACK
// packs groups * group_output_channels * kh * kw * group_input_channels filter floats
// from the constant without checking its dims, so a mismatch would read past it.
Error conv_operands(uint32_t index, const NodeDesc& d, const Shape* shapes) {
  const auto* c = static_cast<const fb_xnnpack::_XNNNodeConv*>(d.node->xnode_union());
  const bool depthwise = d.type == XNodeUnion::XNNDepthwiseConv2d;
  const uint64_t out_channels = uint64_t{c->groups()} * c->group_output_channels();
  const uint64_t in_channels = depthwise ? c->groups() : uint64_t{c->groups()} * c->group_input_channels();
  const Shape& in = shapes[d.inputs[0]];
  if (in.rank != 4 || in.dims[3] != in_channels) {
    return runtime::fail(Error::InvalidArgument,
                         "XNNPACK node %u (%s): input must be NHWC with %llu channels (groups %u)",
                         index, node_type_name(d.type), static_cast<unsigned long long>(in_channels),
                         c->groups());
  }
  const uint64_t want[4] = {depthwise ? 1 : out_channels, c->kernel_height(), c->kernel_width(),
                            depthwise ? out_channels : c->group_input_channels()};
  const Shape& f = shapes[d.inputs[1]];
  bool filter_ok = f.rank == 4;
  for (uint32_t i = 0; filter_ok && i < 4; ++i) filter_ok = f.dims[i] == want[i];
  if (!filter_ok) {
    return runtime::fail(Error::InvalidArgument,
                         "XNNPACK node %u (%s): filter value %u must be [%llu, %llu, %llu, %llu] "
                         "for the node's kernel, groups and channels",
                         index, node_type_name(d.type), d.inputs[1],
                         static_cast<unsigned long long>(want[0]), static_cast<unsigned long long>(want[1]),
                         static_cast<unsigned long long>(want[2]), static_cast<unsigned long long>(want[3]));
  }
  if (d.num_inputs > 2 && d.inputs[2] != kInvalidId) {
    const Shape& b = shapes[d.inputs[2]];
    if (b.rank != 1 || b.dims[0] != out_channels) {
      return runtime::fail(Error::InvalidArgument,
                           "XNNPACK node %u (%s): bias value %u must be [%llu]", index,
                           node_type_name(d.type), d.inputs[2],
                           static_cast<unsigned long long>(out_channels));
    }
  }
  return Error::Ok;
}

Error conv_shape(const NodeDesc& d, const Shape& in, Shape* out, bool transpose) {
  // Conv2d, DepthwiseConv2d and ConvTranspose2d share the _XNNNodeConv table.
  const auto* c = static_cast<const fb_xnnpack::_XNNNodeConv*>(d.node->xnode_union());
  if (in.rank != 4) return Error::InvalidArgument;
  *out = in;
  // Padding sums in size_t as XNNPACK computes them (uint32 would wrap and disagree).
  const size_t ph = size_t{c->padding_top()} + c->padding_bottom();
  const size_t pw = size_t{c->padding_left()} + c->padding_right();
  if (!transpose) {
    out->dims[1] = conv_out(in.dims[1], ph, c->kernel_height(), c->subsampling_height(),
                            c->dilation_height());
    out->dims[2] = conv_out(in.dims[2], pw, c->kernel_width(), c->subsampling_width(),
                            c->dilation_width());
  } else {
    const auto up = [](size_t i, uint32_t s, uint32_t adj, uint32_t k, uint32_t dil, size_t p) {
      if (i == 0 || k == 0) return size_t{0};
      const size_t full = s * (i - 1) + adj + (size_t(k) - 1) * (dil == 0 ? 1 : dil) + 1;
      return full > p ? full - p : 0;
    };
    out->dims[1] = up(in.dims[1], c->subsampling_height(), c->adjustment_height(),
                      c->kernel_height(), c->dilation_height(), ph);
    out->dims[2] = up(in.dims[2], c->subsampling_width(), c->adjustment_width(), c->kernel_width(),
                      c->dilation_width(), pw);
  }
  out->dims[3] = size_t(c->groups()) * c->group_output_channels();
  return (out->dims[1] == 0 || out->dims[2] == 0) ? Error::InvalidArgument : Error::Ok;
}

Error pool_shape(const NodeDesc& d, const Shape& in, Shape* out) {
  const auto* p = static_cast<const fb_xnnpack::_XNNPooling2D*>(d.node->xnode_union());
  if (in.rank != 4) return Error::InvalidArgument;
  *out = in;
  out->dims[1] = conv_out(in.dims[1], size_t{p->padding_top()} + p->padding_bottom(), p->pooling_height(),
                          p->stride_height(), p->dilation_height());
  out->dims[2] = conv_out(in.dims[2], size_t{p->padding_left()} + p->padding_right(), p->pooling_width(),
                          p->stride_width(), p->dilation_width());
  return (out->dims[1] == 0 || out->dims[2] == 0) ? Error::InvalidArgument : Error::Ok;
}

Error reshape_shape(const fb_xnnpack::XNNStaticReshape* r, const Shape& in, Shape* out) {
  const auto* ns = r->new_shape();
  const uint32_t rank = ns == nullptr ? 0 : ns->size();
  if (rank > kMaxDims) return Error::InvalidArgument;
  out->rank = rank;
  size_t known = 1;
  int inferred = -1;
  for (uint32_t i = 0; i < rank; ++i) {
    out->dims[i] = ns->Get(i);
    if (out->dims[i] == 0) {
      if (inferred >= 0) return Error::InvalidArgument;
      inferred = int(i);
    } else {
      known *= out->dims[i];
    }
  }
  if (inferred >= 0) {
    if (known == 0 || in.numel() % known != 0) return Error::InvalidArgument;
    out->dims[inferred] = in.numel() / known;
  }
  return out->numel() == in.numel() ? Error::Ok : Error::InvalidArgument;
}

Error concat_shape(const NodeDesc& d, const Shape* shapes, Shape* out) {
  const auto* c = static_cast<const fb_xnnpack::_XNNCat*>(d.node->xnode_union());
  const Shape& first = shapes[d.inputs[0]];
  if (c->axis() >= first.rank) return Error::InvalidArgument;
  *out = first;
  out->dims[c->axis()] = 0;
  for (uint32_t i = 0; i < d.num_inputs; ++i) {
    const Shape& s = shapes[d.inputs[i]];
    if (s.rank != first.rank) return Error::InvalidArgument;
    for (uint32_t k = 0; k < s.rank; ++k) {
      if (k != c->axis() && s.dims[k] != first.dims[k]) return Error::InvalidArgument;
    }
    out->dims[c->axis()] += s.dims[c->axis()];
  }
  return Error::Ok;
}

Error layout_shape(const NodeDesc& d, const Shape* shapes, Shape* out);

}  // namespace

size_t Shape::numel() const {
  size_t n = 1;
  for (uint32_t i = 0; i < rank; ++i) n *= dims[i];
  return n;
}

bool Shape::operator==(const Shape& o) const {
  if (rank != o.rank) return false;
  for (uint32_t i = 0; i < rank; ++i) {
    if (dims[i] != o.dims[i]) return false;
  }
  return true;
}

Shape declared_shape(const ValueInfo& v) {
  Shape s;
  s.rank = v.rank;
  for (uint32_t i = 0; i < v.rank; ++i) s.dims[i] = v.dims[i];
  return s;
}

namespace {

Error layout_shape(const NodeDesc& d, const Shape* shapes, Shape* out) {
  const Shape& in = shapes[d.inputs[0]];
  switch (d.type) {
    case XNodeUnion::XNNStaticTranspose: {
      const auto* t = d.node->xnode_union_as_XNNStaticTranspose();
      const auto* perm = t->perm();
      if (perm == nullptr || perm->size() != in.rank) return Error::InvalidArgument;
      out->rank = in.rank;
      uint32_t seen = 0;
      for (uint32_t i = 0; i < in.rank; ++i) {
        const uint32_t p = perm->Get(i);
        if (p >= in.rank || (seen & (1u << p))) return Error::InvalidArgument;
        seen |= 1u << p;
        out->dims[i] = in.dims[p];
      }
      return Error::Ok;
    }
    case XNodeUnion::XNNStaticReshape:
      return reshape_shape(d.node->xnode_union_as_XNNStaticReshape(), in, out);
    case XNodeUnion::XNNStaticConstantPad: {
      const auto* p = d.node->xnode_union_as_XNNStaticConstantPad();
      const auto *pre = p->pre_paddings(), *post = p->post_paddings();
      if (pre == nullptr || post == nullptr || pre->size() != in.rank || post->size() != in.rank) {
        return Error::InvalidArgument;
      }
      *out = in;
      for (uint32_t i = 0; i < in.rank; ++i) out->dims[i] += size_t(pre->Get(i)) + post->Get(i);
      return Error::Ok;
    }
    case XNodeUnion::XNNStaticResizeBilinear2D: {
      const auto* r = d.node->xnode_union_as_XNNStaticResizeBilinear2D();
      if (in.rank != 4) return Error::InvalidArgument;
      *out = in;
      out->dims[1] = r->new_height();
      out->dims[2] = r->new_width();
      return Error::Ok;
    }
    case XNodeUnion::XNNStaticSlice: {
      const auto* s = d.node->xnode_union_as_XNNStaticSlice();
      const auto *off = s->offsets(), *sz = s->sizes();
      if (off == nullptr || sz == nullptr || off->size() != in.rank || sz->size() != in.rank) {
        return Error::InvalidArgument;
      }
      out->rank = in.rank;
      for (uint32_t i = 0; i < in.rank; ++i) {
        const size_t o = off->Get(i);
        const size_t n = sz->Get(i) == 0 ? (in.dims[i] > o ? in.dims[i] - o : 0) : sz->Get(i);
        if (o > in.dims[i] || n > in.dims[i] - o) return Error::InvalidArgument;
        out->dims[i] = n;
      }
      return Error::Ok;
    }
    default:
      return concat_shape(d, shapes, out);
  }
}

// XNNPACK's attention: query [*, H, T, C]; key [*, H, U, C] (multi-head) or [*, U, C]
// (multi-query); value like key with D channels; scale [C]; mask [T, U]; out [*, H, T, D].
Error attention_shape(uint32_t index, const NodeDesc& d, const Shape* shapes, Shape* out) {
  const Shape &q = shapes[d.inputs[0]], &k = shapes[d.inputs[1]], &v = shapes[d.inputs[2]];
  const Shape &scale = shapes[d.inputs[3]], &mask = shapes[d.inputs[4]];
  if (q.rank < 3) return bad(index, d, "query must be [*, heads, tokens, channels]");
  if ((k.rank != q.rank && k.rank + 1 != q.rank) || v.rank != k.rank) {
    return bad(index, d, "key and value must have the query's rank (multi-head) or one less "
                         "(multi-query)");
  }
  const uint32_t batch = q.rank - 3;
  const bool multi_head = k.rank == q.rank;
  for (uint32_t i = 0; i < batch; ++i) {
    if (k.dims[i] != q.dims[i] || v.dims[i] != q.dims[i]) {
      return bad(index, d, "key/value batch dims differ from the query's");
    }
  }
  if (multi_head && (k.dims[batch] != q.dims[batch] || v.dims[batch] != q.dims[batch])) {
    return bad(index, d, "key/value heads differ from the query's");
  }
  const size_t channels = q.dims[q.rank - 1], tokens = q.dims[q.rank - 2];
  const size_t key_tokens = k.dims[k.rank - 2];
  if (k.dims[k.rank - 1] != channels) return bad(index, d, "key channels differ from the query's");
  if (v.dims[v.rank - 2] != key_tokens) return bad(index, d, "value tokens differ from the key's");
  if (scale.rank != 1 || scale.dims[0] != channels) {
    return bad(index, d, "scale must be [query channels]");
  }
  if (mask.rank != 2 || mask.dims[0] != tokens || mask.dims[1] != key_tokens) {
    return bad(index, d, "mask must be [query tokens, key tokens]");
  }
  *out = q;
  out->dims[q.rank - 1] = v.dims[v.rank - 1];
  return Error::Ok;
}

}  // namespace

Error infer_node_shapes(const GraphModel& m, uint32_t index, Shape* shapes) {
  const NodeDesc& d = m.nodes[index];
  const Shape& in = shapes[d.inputs[0]];
  Shape& out = shapes[d.outputs[0]];
  Error e = Error::Ok;
  switch (d.type) {
    case XNodeUnion::XNNAdd: case XNodeUnion::XNNSubtract: case XNodeUnion::XNNMultiply:
    case XNodeUnion::XNNDiv: case XNodeUnion::XNNMinimum: case XNodeUnion::XNNMaximum:
      e = broadcast(in, shapes[d.inputs[1]], &out);
      break;
    case XNodeUnion::XNNFullyConnected: {
      const Shape& w = shapes[d.inputs[1]];
      if (in.rank == 0 || w.rank != 2 || in.dims[in.rank - 1] != w.dims[1]) {
        return bad(index, d, "input's last dim does not match the filter's input channels");
      }
      if (d.num_inputs > 2 && d.inputs[2] != kInvalidId &&
          (shapes[d.inputs[2]].rank != 1 || shapes[d.inputs[2]].dims[0] != w.dims[0])) {
        return bad(index, d, "bias is not [output channels] (the filter's first dim)");
      }
      out = in;
      out.dims[in.rank - 1] = w.dims[0];
      break;
    }
    case XNodeUnion::XNNConv2d: case XNodeUnion::XNNDepthwiseConv2d:
    case XNodeUnion::XNNConvTranspose2d:
      EMBER_TRY(conv_operands(index, d, shapes));
      e = conv_shape(d, in, &out, d.type == XNodeUnion::XNNConvTranspose2d);
      break;
    case XNodeUnion::XNNAvgPooling2d: case XNodeUnion::XNNMaxPooling2d:
      e = pool_shape(d, in, &out);
      break;
    case XNodeUnion::XNNArgMaxPooling2d: {
      const auto* p = d.node->xnode_union_as_XNNArgMaxPooling2d();
      if (in.rank != 4) return bad(index, d, "input is not 4-D");
      out = in;
      out.dims[1] = conv_out(in.dims[1], size_t{p->padding_top()} + p->padding_bottom(),
                             p->pooling_height(), p->pooling_height(), 1);
      out.dims[2] = conv_out(in.dims[2], size_t{p->padding_left()} + p->padding_right(),
                             p->pooling_width(), p->pooling_width(), 1);
      shapes[d.outputs[1]] = out;
      break;
    }
    case XNodeUnion::XNNGlobalAvgPooling2d:
      if (in.rank != 4) return bad(index, d, "input is not 4-D");
      out = in;
      out.dims[1] = out.dims[2] = 1;
      break;
    case XNodeUnion::XNNBatchMatrixMultiply: {
      const Shape& b = shapes[d.inputs[1]];
      if (in.rank < 2 || b.rank < 2 || in.dims[in.rank - 1] != b.dims[b.rank - 2]) {
        return bad(index, d, "inner dimensions do not match");
      }
      for (uint32_t i = 0; b.rank == in.rank && i + 2 < in.rank; ++i) {
        if (in.dims[i] != b.dims[i]) return bad(index, d, "batch dimensions differ");
      }
      out = in;
      out.dims[in.rank - 1] = b.dims[b.rank - 1];
      break;
    }
    case XNodeUnion::XNNStaticTranspose: case XNodeUnion::XNNStaticReshape:
    case XNodeUnion::XNNStaticConstantPad: case XNodeUnion::XNNStaticResizeBilinear2D:
    case XNodeUnion::XNNStaticSlice: case XNodeUnion::XNNConcatenate2:
    case XNodeUnion::XNNConcatenate3: case XNodeUnion::XNNConcatenate4:
    case XNodeUnion::XNNConcatenate5:
      e = layout_shape(d, shapes, &out);
      break;
    case XNodeUnion::XNNScaledDotProductAttention:
      return attention_shape(index, d, shapes, &out);
    case XNodeUnion::XNNPReLU: {
      // XNNPACK copies input-channels slope floats from the slope's static data.
      const uint32_t slope = d.inputs[1];
      if (m.values[slope].data == nullptr || in.rank == 0 ||
          shapes[slope].numel() != in.dims[in.rank - 1]) {
        return bad(index, d, "slope is not a constant with one value per input channel");
      }
      out = in;
      break;
    }
    default:  // unary nodes keep the input shape
      out = in;
      break;
  }
  if (e != Error::Ok) return bad(index, d, "input shapes do not fit the node's parameters");
  return Error::Ok;
}

}  // namespace ember::backends::xnnpack
