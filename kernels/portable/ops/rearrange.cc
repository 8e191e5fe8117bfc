// The view.h kernels that rearrange elements rather than view them: roll,
// tril, pixel_shuffle, pixel_unshuffle (view_as_real_copy: complex.cc).
#include <cstring>

#include "kernels/portable/ops/view.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

bool prepare_same(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out, const char* op) {
  return check_dtype(ctx, out, in.scalar_type(), op, "out") && resize_like(ctx, out, in, op);
}

}  // namespace

Tensor& roll_out(KernelRuntimeContext& ctx, const Tensor& in, IntList shifts, IntList dims,
                 Tensor& out) {
  const char* op = "roll.out";
  if (shifts.size() == 0 || (dims.size() != 0 && dims.size() != shifts.size())) {
    ctx.fail(Error::InvalidArgument, "%s: %zu shifts for %zu dims", op, shifts.size(),
             dims.size());
    return out;
  }
  if (dims.size() == 0 && shifts.size() != 1) {
    ctx.fail(Error::InvalidArgument, "%s: flattened roll takes one shift", op);
    return out;
  }
  if (!prepare_same(ctx, in, out, op)) return out;
  const size_t esize = in.element_size();
  const char* pi = static_cast<const char*>(in.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  int64_t is[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(in, is);
  tensor_strides(out, os);
  const int64_t numel = int64_t(in.numel());
  if (dims.size() == 0) {
    if (numel == 0) return out;
    const int64_t shift = ((shifts[0] % numel) + numel) % numel;
    for (int64_t i = 0; i < numel; ++i) {
      const int64_t src = (i - shift + numel) % numel;
      std::memcpy(po + offset_of(i, out.sizes().data(), os, out.dim()) * esize,
                  pi + offset_of(src, in.sizes().data(), is, in.dim()) * esize, esize);
    }
    return out;
  }
  int64_t shift[kMaxTensorDims] = {};
  for (size_t k = 0; k < dims.size(); ++k) {
    int64_t d = 0;
    if (!normalize_dim(ctx, dims[k], in.dim(), op, &d)) return out;
    if (in.dim() == 0) continue;
    const int64_t s = in.size(d);
    if (s > 0) shift[d] = (shift[d] + (shifts[k] % s) + s) % s;
  }
  for_each_index(in.sizes().data(), in.dim(), [&](const int64_t* idx) {
    int64_t src = 0, dst = 0;
    for (size_t d = 0; d < in.dim(); ++d) {
      const int64_t s = in.size(d);
      src += ((idx[d] - shift[d] + s) % s) * is[d];
      dst += idx[d] * os[d];
    }
    std::memcpy(po + dst * esize, pi + src * esize, esize);
  });
  return out;
}

Tensor& tril_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t diagonal, Tensor& out) {
  const char* op = "tril.out";
  if (in.dim() < 2) {
    ctx.fail(Error::InvalidArgument, "%s: input must have >= 2 dims, got %zu", op, in.dim());
    return out;
  }
  if (!prepare_same(ctx, in, out, op)) return out;
  copy_into(in, out);
  // Zero out[..., i, j] for j > i + diagonal.
  const size_t esize = out.element_size();
  char* po = static_cast<char*>(out.mutable_data_ptr());
  int64_t os[kMaxTensorDims];
  tensor_strides(out, os);
  const size_t r = out.dim();
  for_each_index(out.sizes().data(), r, [&](const int64_t* idx) {
    if (idx[r - 1] <= idx[r - 2] + diagonal) return;
    int64_t off = 0;
    for (size_t d = 0; d < r; ++d) off += idx[d] * os[d];
    std::memset(po + off * esize, 0, esize);
  });
  return out;
}

Tensor& pixel_shuffle_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t factor,
                          Tensor& out) {
  const char* op = "pixel_shuffle.out";
  const size_t r = in.dim();
  if (r < 3 || factor <= 0 || in.size(r - 3) % (factor * factor) != 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: input needs >= 3 dims and channels divisible by upscale_factor^2", op);
    return out;
  }
  Shape shape;
  for (size_t i = 0; i + 3 < r; ++i) shape.push(in.size(i));
  const int64_t c = in.size(r - 3) / (factor * factor), h = in.size(r - 2), w = in.size(r - 1);
  shape.push(c);
  shape.push(h * factor);
  shape.push(w * factor);
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  // out[..., c, h*f + i, w*f + j] = in[..., c*f*f + i*f + j, h, w], as a 6-D view.
  Shape fine;
  View dst = view_of(out), src = view_of(in);
  const size_t lead = r - 3;
  for (size_t i = 0; i < lead; ++i) {
    fine.push(in.size(i));
    dst.strides[i] = out.strides()[i];
    src.strides[i] = in.strides()[i];
  }
  const int64_t oc = out.strides()[lead], oh = out.strides()[lead + 1], ow = out.strides()[lead + 2];
  const int64_t ic = in.strides()[lead], ih = in.strides()[lead + 1], iw = in.strides()[lead + 2];
  const int64_t sizes[6] = {c, h, factor, w, factor, 0};
  const int64_t ds[5] = {oc, oh * factor, oh, ow * factor, ow};
  const int64_t ss[5] = {ic * factor * factor, ih, ic * factor, iw, ic};
  for (size_t k = 0; k < 5; ++k) {
    dst.strides[fine.dim] = ds[k];
    src.strides[fine.dim] = ss[k];
    fine.push(sizes[k]);
  }
  copy_view(fine.sizes, fine.dim, dst, src);
  return out;
}

Tensor& pixel_unshuffle_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t factor,
                            Tensor& out) {
  const char* op = "pixel_unshuffle.out";
  const size_t r = in.dim();
  if (r < 3 || factor <= 0 || in.size(r - 2) % factor != 0 || in.size(r - 1) % factor != 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: input needs >= 3 dims and height/width divisible by downscale_factor", op);
    return out;
  }
  Shape shape;
  for (size_t i = 0; i + 3 < r; ++i) shape.push(in.size(i));
  const int64_t c = in.size(r - 3), h = in.size(r - 2) / factor, w = in.size(r - 1) / factor;
  shape.push(c * factor * factor);
  shape.push(h);
  shape.push(w);
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  // out[..., c*f*f + i*f + j, h, w] = in[..., c, h*f + i, w*f + j].
  Shape fine;
  View dst = view_of(out), src = view_of(in);
  const size_t lead = r - 3;
  for (size_t i = 0; i < lead; ++i) {
    fine.push(in.size(i));
    dst.strides[i] = out.strides()[i];
    src.strides[i] = in.strides()[i];
  }
  const int64_t oc = out.strides()[lead], oh = out.strides()[lead + 1], ow = out.strides()[lead + 2];
  const int64_t ic = in.strides()[lead], ih = in.strides()[lead + 1], iw = in.strides()[lead + 2];
  const int64_t sizes[5] = {c, factor, factor, h, w};
  const int64_t ds[5] = {oc * factor * factor, oc * factor, oc, oh, ow};
  const int64_t ss[5] = {ic, ih, iw, ih * factor, iw * factor};
  for (size_t k = 0; k < 5; ++k) {
    dst.strides[fine.dim] = ds[k];
    src.strides[fine.dim] = ss[k];
    fine.push(sizes[k]);
  }
  copy_view(fine.sizes, fine.dim, dst, src);
  return out;
}

}  // namespace ember::kernels::portable
