// Joining kernels; see join.h. Each input is copied (with dtype conversion)
// into a strided view of its slice of out.
#include "kernels/portable/ops/join.h"

#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/promote.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// ATen's legacy rule: 1-D empty tensors are skipped by cat.
bool skipped(const Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

// Copies `src` into out's slice [start, start + len) (step `step`) of `dim`.
void copy_into_slice(const Tensor& src, Tensor& out, int64_t dim, int64_t start, int64_t step,
                     bool drop_dim) {
  View dst = view_of(out, start * out.strides()[dim]);
  View s = view_of(src);
  Shape shape;
  if (drop_dim) {
    // src has out's shape without `dim`.
    size_t k = 0;
    for (size_t i = 0; i < out.dim(); ++i) {
      if (int64_t(i) == dim) continue;
      shape.push(out.size(i));
      dst.strides[k] = out.strides()[i];
      s.strides[k] = src.strides()[k];
      ++k;
    }
  } else {
    for (size_t i = 0; i < out.dim(); ++i) shape.push(src.size(i));
    dst.strides[dim] *= step;
  }
  copy_view(shape.sizes, shape.dim, dst, s);
}

}  // namespace

Tensor& cat_out(KernelRuntimeContext& ctx, TensorList tensors, int64_t dim, Tensor& out) {
  const char* op = "cat.out";
  const Tensor* ref = nullptr;
  ScalarType common = ScalarType::Bool;
  bool any = false;
  for (size_t i = 0; i < tensors.size(); ++i) {
    common = any ? promote_types(common, tensors[i].scalar_type()) : tensors[i].scalar_type();
    any = true;
    if (ref == nullptr && !skipped(tensors[i])) ref = &tensors[i];
  }
  if (!any) {
    ctx.fail(Error::InvalidArgument, "%s: expected a non-empty list of tensors", op);
    return out;
  }
  if (!check_out_dtype(ctx, out, common, op)) return out;
  if (ref == nullptr) {  // all inputs are 1-D empty
    const SizesType zero = 0;
    resize_out(ctx, out, {&zero, 1}, op);
    return out;
  }
  if (ref->dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: zero-dimensional tensors can't be concatenated", op);
    return out;
  }
  if (!normalize_dim(ctx, dim, ref->dim(), op, &dim)) return out;
  Shape shape;
  for (size_t i = 0; i < ref->dim(); ++i) shape.push(ref->size(i));
  shape.sizes[dim] = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    const Tensor& x = tensors[t];
    if (skipped(x)) continue;
    bool ok = x.dim() == ref->dim();
    for (size_t i = 0; ok && i < x.dim(); ++i) ok = int64_t(i) == dim || x.size(i) == ref->size(i);
    if (!ok) {
      ctx.fail(Error::InvalidArgument, "%s: tensor %zu's shape doesn't match except in dim %lld",
               op, t, static_cast<long long>(dim));
      return out;
    }
    shape.sizes[dim] += x.size(dim);
  }
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  int64_t start = 0;
  for (size_t t = 0; t < tensors.size(); ++t) {
    if (skipped(tensors[t])) continue;
    copy_into_slice(tensors[t], out, dim, start, 1, false);
    start += tensors[t].size(dim);
  }
  return out;
}

Tensor& stack_out(KernelRuntimeContext& ctx, TensorList tensors, int64_t dim, Tensor& out) {
  const char* op = "stack.out";
  if (tensors.size() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: expected a non-empty list of tensors", op);
    return out;
  }
  const Tensor& ref = tensors[0];
  if (!normalize_dim(ctx, dim, ref.dim() + 1, op, &dim)) return out;
  ScalarType common = ref.scalar_type();
  for (size_t t = 0; t < tensors.size(); ++t) {
    common = promote_types(common, tensors[t].scalar_type());
    bool ok = tensors[t].dim() == ref.dim();
    for (size_t i = 0; ok && i < ref.dim(); ++i) ok = tensors[t].size(i) == ref.size(i);
    if (!ok) {
      ctx.fail(Error::InvalidArgument, "%s: stack expects each tensor to be equal size", op);
      return out;
    }
  }
  if (!check_out_dtype(ctx, out, common, op)) return out;
  Shape shape;
  for (size_t i = 0; i <= ref.dim(); ++i) {
    if (int64_t(i) == dim) shape.push(int64_t(tensors.size()));
    if (i < ref.dim()) shape.push(ref.size(i));
  }
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  for (size_t t = 0; t < tensors.size(); ++t) {
    copy_into_slice(tensors[t], out, dim, int64_t(t), 1, true);
  }
  return out;
}

Tensor& select_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src,
                           int64_t dim, int64_t index, Tensor& out) {
  const char* op = "select_scatter.out";
  if (in.dim() == 0 || !normalize_dim(ctx, dim, in.dim(), op, &dim)) {
    if (in.dim() == 0) ctx.fail(Error::InvalidArgument, "%s: input must have dims", op);
    return out;
  }
  const int64_t size = in.size(dim);
  if (index < -size || index >= size) {
    ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for size %lld", op,
             static_cast<long long>(index), static_cast<long long>(size));
    return out;
  }
  if (index < 0) index += size;
  bool ok = src.dim() + 1 == in.dim();
  for (size_t i = 0, k = 0; ok && i < in.dim(); ++i) {
    if (int64_t(i) == dim) continue;
    ok = src.size(k++) == in.size(i);
  }
  if (!ok) {
    ctx.fail(Error::InvalidArgument, "%s: src shape doesn't match the selected slice", op);
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  copy_into(in, out);
  copy_into_slice(src, out, dim, index, 1, true);
  return out;
}

Tensor& slice_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& src,
                          int64_t dim, std::optional<int64_t> start, std::optional<int64_t> end,
                          int64_t step, Tensor& out) {
  const char* op = "slice_scatter.out";
  if (in.dim() == 0 || !normalize_dim(ctx, dim, in.dim(), op, &dim)) {
    if (in.dim() == 0) ctx.fail(Error::InvalidArgument, "%s: input must have dims", op);
    return out;
  }
  if (step <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: step must be positive", op);
    return out;
  }
  const int64_t size = in.size(dim);
  auto clampi = [size](int64_t i) {
    if (i < 0) i += size;
    return i < 0 ? int64_t(0) : (i > size ? size : i);
  };
  const int64_t s = clampi(start.value_or(0));
  int64_t e = clampi(end.value_or(size));
  if (e < s) e = s;
  const int64_t len = (e - s + step - 1) / step;
  bool ok = src.dim() == in.dim();
  for (size_t i = 0; ok && i < in.dim(); ++i) {
    ok = src.size(i) == (int64_t(i) == dim ? len : in.size(i));
  }
  if (!ok) {
    ctx.fail(Error::InvalidArgument, "%s: src shape doesn't match the slice", op);
    return out;
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  copy_into(in, out);
  copy_into_slice(src, out, dim, s, step, false);
  return out;
}

}  // namespace ember::kernels::portable
