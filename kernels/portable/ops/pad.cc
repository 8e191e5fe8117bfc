// Padding kernels; see pad.h.
#include "kernels/portable/ops/pad.h"

#include <cstring>

#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Reflection (reflect=true) or replication padding of the last k dims.
Tensor& index_pad(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, size_t k,
                  bool reflect, Tensor& out, const char* op) {
  if (pad.size() != 2 * k || (in.dim() != k + 1 && in.dim() != k + 2)) {
    ctx.fail(Error::InvalidArgument, "%s: needs %zu pads and a %zu-D or %zu-D input", op, 2 * k,
             k + 1, k + 2);
    return out;
  }
  Shape shape;
  int64_t before[kMaxTensorDims] = {};
  const size_t lead = in.dim() - k;
  for (size_t d = 0; d < in.dim(); ++d) {
    int64_t s = in.size(d);
    if (d >= lead) {
      const size_t q = in.dim() - 1 - d;  // 0 = last dim
      const int64_t l = pad[2 * q], r = pad[2 * q + 1];
      if ((reflect && (l >= s || r >= s || l < 0 || r < 0)) || (!reflect && s == 0 && l + r > 0) ||
          s + l + r <= 0) {
        ctx.fail(Error::InvalidArgument, "%s: padding %lld/%lld invalid for dim %zu of size %lld",
                 op, static_cast<long long>(l), static_cast<long long>(r), d,
                 static_cast<long long>(s));
        return out;
      }
      before[d] = l;
      s += l + r;
    }
    shape.push(s);
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  const size_t es = in.element_size();
  const char* pi = static_cast<const char*>(in.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  for_each_index(out.sizes().data(), out.dim(), [&](const int64_t* idx) {
    int64_t src = 0, dst = 0;
    for (size_t d = 0; d < out.dim(); ++d) {
      int64_t i = idx[d] - before[d];
      const int64_t n = in.size(d);
      if (reflect) {
        if (i < 0) i = -i;
        if (i >= n) i = 2 * (n - 1) - i;
      } else {
        i = i < 0 ? 0 : (i >= n ? n - 1 : i);
      }
      src += i * in.strides()[d];
      dst += idx[d] * out.strides()[d];
    }
    std::memcpy(po + dst * es, pi + src * es, es);
  });
  return out;
}

}  // namespace

Tensor& constant_pad_nd_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                            const Scalar& value, Tensor& out) {
  const char* op = "constant_pad_nd.out";
  if (pad.size() % 2 != 0 || pad.size() / 2 > in.dim()) {
    ctx.fail(Error::InvalidArgument, "%s: %zu pad values for a tensor of rank %zu", op,
             pad.size(), in.dim());
    return out;
  }
  Shape shape;
  int64_t lo[kMaxTensorDims] = {};
  for (size_t d = 0; d < in.dim(); ++d) {
    const size_t q = in.dim() - 1 - d;
    int64_t s = in.size(d);
    if (q < pad.size() / 2) {
      lo[d] = pad[2 * q];
      s += pad[2 * q] + pad[2 * q + 1];
    }
    if (s < 0) {
      ctx.fail(Error::InvalidArgument, "%s: padded size of dim %zu would be %lld", op, d,
               static_cast<long long>(s));
      return out;
    }
    shape.push(s);
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  fill_scalar(out, value);
  // Copy the overlap of in (shifted by lo) and out.
  Shape overlap;
  int64_t in_off = 0, out_off = 0;
  for (size_t d = 0; d < in.dim(); ++d) {
    const int64_t src0 = lo[d] < 0 ? -lo[d] : 0, dst0 = lo[d] > 0 ? lo[d] : 0;
    int64_t len = in.size(d) - src0;
    if (len > shape.sizes[d] - dst0) len = shape.sizes[d] - dst0;
    overlap.push(len < 0 ? 0 : len);
    in_off += src0 * in.strides()[d];
    out_off += dst0 * out.strides()[d];
  }
  if (shape_numel(overlap.span()) > 0) {
    copy_view(overlap.sizes, overlap.dim, view_of(out, out_off), view_of(in, in_off));
  }
  return out;
}

Tensor& reflection_pad1d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out) {
  return index_pad(ctx, in, pad, 1, true, out, "reflection_pad1d.out");
}
Tensor& reflection_pad2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out) {
  return index_pad(ctx, in, pad, 2, true, out, "reflection_pad2d.out");
}
Tensor& reflection_pad3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad, Tensor& out) {
  return index_pad(ctx, in, pad, 3, true, out, "reflection_pad3d.out");
}
Tensor& replication_pad1d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out) {
  return index_pad(ctx, in, pad, 1, false, out, "replication_pad1d.out");
}
Tensor& replication_pad2d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out) {
  return index_pad(ctx, in, pad, 2, false, out, "replication_pad2d.out");
}
Tensor& replication_pad3d_out(KernelRuntimeContext& ctx, const Tensor& in, IntList pad,
                              Tensor& out) {
  return index_pad(ctx, in, pad, 3, false, out, "replication_pad3d.out");
}

}  // namespace ember::kernels::portable
