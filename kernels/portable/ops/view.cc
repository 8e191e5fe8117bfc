// View-like kernels as strided copies; see view.h.
#include "kernels/portable/ops/view.h"

#include <cstring>

#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

// Resizes out to `shape`, checks dtype, copies from `src` (strides over out's dims).
Tensor& copy_view_out(KernelRuntimeContext& ctx, const Shape& shape, const View& src,
                      Tensor& out, const char* op) {
  if (!check_dtype(ctx, out, src.dtype, op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  copy_view(shape.sizes, shape.dim, view_of(out), src);
  return out;
}

// Resizes out to `shape` and copies `in` in logical order (reshape semantics).
Tensor& reshape_out(KernelRuntimeContext& ctx, const Tensor& in, const Shape& shape, Tensor& out,
                    const char* op) {
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  reshape_copy(in, out);
  return out;
}

Shape shape_of(const Tensor& t) {
  Shape s;
  for (size_t i = 0; i < t.dim(); ++i) s.push(t.size(i));
  return s;
}

Tensor& transpose_impl(KernelRuntimeContext& ctx, const Tensor& in, int64_t d0, int64_t d1,
                       Tensor& out, const char* op) {
  if (in.dim() == 0) return reshape_out(ctx, in, Shape(), out, op);
  if (!normalize_dim(ctx, d0, in.dim(), op, &d0) || !normalize_dim(ctx, d1, in.dim(), op, &d1)) {
    return out;
  }
  Shape shape = shape_of(in);
  View src = view_of(in);
  shape.sizes[d0] = in.size(d1);
  shape.sizes[d1] = in.size(d0);
  src.strides[d0] = in.strides()[d1];
  src.strides[d1] = in.strides()[d0];
  return copy_view_out(ctx, shape, src, out, op);
}

// Python-style slice bounds clamped to [0, size].
int64_t clamp_index(int64_t i, int64_t size) {
  if (i < 0) i += size;
  return i < 0 ? 0 : (i > size ? size : i);
}

// Copies [start, start + length) of `dim` of in into out.
bool narrow_into(const Tensor& in, int64_t dim, int64_t start, int64_t length, Tensor& out) {
  Shape shape = shape_of(in);
  shape.sizes[dim] = static_cast<SizesType>(length);
  return copy_view(shape.sizes, shape.dim, view_of(out), view_of(in, start * in.strides()[dim]));
}

void split_impl(KernelRuntimeContext& ctx, const Tensor& in, IntList sizes, int64_t split_size,
                int64_t dim, TensorList out, const char* op) {
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim) || in.dim() == 0) {
    if (in.dim() == 0) ctx.fail(Error::InvalidArgument, "%s: input must have dims", op);
    return;
  }
  int64_t start = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    const int64_t len = sizes.size() > 0
                            ? sizes[i]
                            : (in.size(dim) - start < split_size ? in.size(dim) - start
                                                                 : split_size);
    if (len < 0 || start + len > in.size(dim)) {
      ctx.fail(Error::InvalidArgument, "%s: split sizes exceed dim size %d", op, in.size(dim));
      return;
    }
    Shape shape = shape_of(in);
    shape.sizes[dim] = static_cast<SizesType>(len);
    if (!check_dtype(ctx, out[i], in.scalar_type(), op, "out")) return;
    if (!resize_out(ctx, out[i], shape.span(), op)) return;
    narrow_into(in, dim, start, len, out[i]);
    start += len;
  }
  if (start != in.size(dim)) {
    ctx.fail(Error::InvalidArgument, "%s: split covers %lld of %d elements", op,
             static_cast<long long>(start), in.size(dim));
  }
}

}  // namespace

Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size, Tensor& out) {
  const char* op = "view_copy.out";
  Shape shape;
  int64_t known = 1, infer = -1;
  for (size_t i = 0; i < size.size() && i < kMaxTensorDims; ++i) {
    if (size[i] == -1 && infer < 0) {
      infer = int64_t(i);
    } else if (size[i] < 0) {
      ctx.fail(Error::InvalidArgument, "%s: invalid size %lld", op, static_cast<long long>(size[i]));
      return out;
    } else {
      known *= size[i];
    }
    shape.push(size[i]);
  }
  if (infer >= 0) {
    if (known == 0 || int64_t(in.numel()) % known != 0) {
      ctx.fail(Error::InvalidArgument, "%s: can't infer -1 for %zu elements", op, in.numel());
      return out;
    }
    shape.sizes[infer] = static_cast<SizesType>(int64_t(in.numel()) / known);
    known *= shape.sizes[infer];
  }
  if (known != int64_t(in.numel()) || size.size() > kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: shape of %lld elements is invalid for input of %zu", op,
             static_cast<long long>(known), in.numel());
    return out;
  }
  return reshape_out(ctx, in, shape, out, op);
}

Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, Tensor& out) {
  const char* op = "permute_copy.out";
  const size_t rank = in.dim();
  if (dims.size() != rank) {
    ctx.fail(Error::InvalidArgument, "%s: %zu dims given for a tensor of rank %zu", op,
             dims.size(), rank);
    return out;
  }
  // Out's sizes and, per out dim, the input stride it walks: rank entries only (no View).
  SizesType sizes[kMaxTensorDims];
  int64_t src_strides[kMaxTensorDims];
  uint32_t seen = 0;
  for (size_t i = 0; i < rank; ++i) {
    int64_t d = 0;
    if (!normalize_dim(ctx, dims[i], rank, op, &d)) return out;
    if (seen & (1u << d)) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld repeated", op, static_cast<long long>(d));
      return out;
    }
    seen |= 1u << d;
    sizes[i] = in.size(d);
    src_strides[i] = in.strides()[d];
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, {sizes, rank}, op)) return out;
  int64_t dst_strides[kMaxTensorDims];
  tensor_strides(out, dst_strides);
  if (copy_small(sizes, rank, out.element_size(), out.mutable_data_ptr(), dst_strides,
                 in.const_data_ptr(), src_strides)) {
    return out;
  }
  View src = view_of(in);
  for (size_t i = 0; i < rank; ++i) src.strides[i] = src_strides[i];
  copy_view(sizes, rank, view_of(out), src);
  return out;
}

Tensor& expand_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size, bool,
                        Tensor& out) {
  const char* op = "expand_copy.out";
  if (size.size() < in.dim() || size.size() > kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: %zu sizes for a tensor of rank %zu", op, size.size(),
             in.dim());
    return out;
  }
  const size_t lead = size.size() - in.dim();
  Shape shape;
  View src = view_of(in);
  for (size_t i = 0; i < size.size(); ++i) {
    const int64_t have = i < lead ? 1 : in.size(i - lead);
    int64_t want = size[i];
    if (want == -1 && i >= lead) want = have;
    if (want < 0 || (have != 1 && have != want)) {
      ctx.fail(Error::InvalidArgument, "%s: can't expand size %lld to %lld at dim %zu", op,
               static_cast<long long>(have), static_cast<long long>(size[i]), i);
      return out;
    }
    shape.push(want);
    src.strides[i] = (i < lead || have != want) ? 0 : in.strides()[i - lead];
    if (i >= lead && have == 1) src.strides[i] = 0;
  }
  return copy_view_out(ctx, shape, src, out, op);
}

Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out) {
  const char* op = "unsqueeze_copy.out";
  if (!normalize_dim(ctx, dim, in.dim() + 1, op, &dim)) return out;
  Shape shape;
  for (size_t i = 0; i <= in.dim(); ++i) {
    if (int64_t(i) == dim) shape.push(1);
    if (i < in.dim()) shape.push(in.size(i));
  }
  return reshape_out(ctx, in, shape, out, op);
}

Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims,
                              Tensor& out) {
  const char* op = "squeeze_copy.dims_out";
  bool drop[kMaxTensorDims] = {};
  for (int64_t d : dims) {
    int64_t n = 0;
    if (!normalize_dim(ctx, d, in.dim(), op, &n)) return out;
    if (in.dim() > 0 && in.size(n) == 1) drop[n] = true;
  }
  Shape shape;
  for (size_t i = 0; i < in.dim(); ++i) {
    if (!drop[i]) shape.push(in.size(i));
  }
  return reshape_out(ctx, in, shape, out, op);
}

Tensor& squeeze_copy_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                             Tensor& out) {
  return squeeze_copy_dims_out(ctx, in, {&dim, 1}, out);
}

Tensor& t_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  if (in.dim() > 2) {
    ctx.fail(Error::InvalidArgument, "t_copy.out: input must have <= 2 dims, got %zu", in.dim());
    return out;
  }
  if (in.dim() < 2) return reshape_out(ctx, in, shape_of(in), out, "t_copy.out");
  return transpose_impl(ctx, in, 0, 1, out, "t_copy.out");
}

Tensor& transpose_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim0,
                               int64_t dim1, Tensor& out) {
  return transpose_impl(ctx, in, dim0, dim1, out, "transpose_copy.int_out");
}

Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out) {
  const char* op = "select_copy.int_out";
  if (in.dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: can't select from a 0-dim tensor", op);
    return out;
  }
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  const int64_t size = in.size(dim);
  if (index < -size || index >= size) {
    ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for size %lld", op,
             static_cast<long long>(index), static_cast<long long>(size));
    return out;
  }
  if (index < 0) index += size;
  Shape shape;
  View src = view_of(in, index * in.strides()[dim]);
  for (size_t i = 0, k = 0; i < in.dim(); ++i) {
    if (int64_t(i) == dim) continue;
    shape.push(in.size(i));
    src.strides[k++] = in.strides()[i];
  }
  return copy_view_out(ctx, shape, src, out, op);
}

Tensor& slice_copy_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step, Tensor& out) {
  const char* op = "slice_copy.Tensor_out";
  if (in.dim() == 0) {
    ctx.fail(Error::InvalidArgument, "%s: can't slice a 0-dim tensor", op);
    return out;
  }
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  if (step <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: step must be positive, got %lld", op,
             static_cast<long long>(step));
    return out;
  }
  const int64_t size = in.size(dim);
  const int64_t s = clamp_index(start.value_or(0), size);
  int64_t e = clamp_index(end.value_or(size), size);
  if (e < s) e = s;
  Shape shape = shape_of(in);
  shape.sizes[dim] = static_cast<SizesType>((e - s + step - 1) / step);
  View src = view_of(in, s * in.strides()[dim]);
  src.strides[dim] *= step;
  return copy_view_out(ctx, shape, src, out, op);
}

Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out) {
  const char* op = "narrow_copy.out";
  if (in.dim() == 0 || !normalize_dim(ctx, dim, in.dim(), op, &dim)) {
    if (in.dim() == 0) ctx.fail(Error::InvalidArgument, "%s: can't narrow a 0-dim tensor", op);
    return out;
  }
  const int64_t size = in.size(dim);
  if (start < -size || start > size) {
    ctx.fail(Error::InvalidArgument, "%s: start %lld out of range", op, static_cast<long long>(start));
    return out;
  }
  if (start < 0) start += size;
  if (length < 0 || start + length > size) {
    ctx.fail(Error::InvalidArgument, "%s: start %lld + length %lld exceeds size %lld", op,
             static_cast<long long>(start), static_cast<long long>(length),
             static_cast<long long>(size));
    return out;
  }
  Shape shape = shape_of(in);
  shape.sizes[dim] = static_cast<SizesType>(length);
  return copy_view_out(ctx, shape, view_of(in, start * in.strides()[dim]), out, op);
}

Tensor& diagonal_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t offset,
                          int64_t dim1, int64_t dim2, Tensor& out) {
  const char* op = "diagonal_copy.out";
  if (in.dim() < 2) {
    ctx.fail(Error::InvalidArgument, "%s: input must have >= 2 dims", op);
    return out;
  }
  if (!normalize_dim(ctx, dim1, in.dim(), op, &dim1) ||
      !normalize_dim(ctx, dim2, in.dim(), op, &dim2)) {
    return out;
  }
  if (dim1 == dim2) {
    ctx.fail(Error::InvalidArgument, "%s: dim1 and dim2 must differ", op);
    return out;
  }
  const int64_t s1 = in.size(dim1), s2 = in.size(dim2);
  int64_t len = offset >= 0 ? (s1 < s2 - offset ? s1 : s2 - offset)
                            : (s1 + offset < s2 ? s1 + offset : s2);
  if (len < 0) len = 0;
  int64_t base = 0;
  if (len > 0) base = offset >= 0 ? offset * in.strides()[dim2] : -offset * in.strides()[dim1];
  Shape shape;
  View src = view_of(in, base);
  size_t k = 0;
  for (size_t i = 0; i < in.dim(); ++i) {
    if (int64_t(i) == dim1 || int64_t(i) == dim2) continue;
    shape.push(in.size(i));
    src.strides[k++] = in.strides()[i];
  }
  shape.push(len);
  src.strides[k] = in.strides()[dim1] + in.strides()[dim2];
  return copy_view_out(ctx, shape, src, out, op);
}

Tensor& as_strided_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size,
                            IntList stride, std::optional<int64_t> storage_offset, Tensor& out) {
  const char* op = "as_strided_copy.out";
  const int64_t off = storage_offset.value_or(0);
  if (size.size() != stride.size() || size.size() > kMaxTensorDims || off < 0) {
    ctx.fail(Error::InvalidArgument, "%s: size and stride must have equal lengths", op);
    return out;
  }
  Shape shape;
  View src = view_of(in, off);
  int64_t max_offset = off;
  bool empty = false;
  for (size_t i = 0; i < size.size(); ++i) {
    if (size[i] < 0 || stride[i] < 0) {
      ctx.fail(Error::InvalidArgument, "%s: negative size or stride", op);
      return out;
    }
    shape.push(size[i]);
    src.strides[i] = stride[i];
    empty = empty || size[i] == 0;
    max_offset += (size[i] - 1) * stride[i];
  }
  if (!empty && max_offset >= int64_t(in.numel())) {
    ctx.fail(Error::InvalidArgument, "%s: view reaches element %lld of %zu", op,
             static_cast<long long>(max_offset), in.numel());
    return out;
  }
  return copy_view_out(ctx, shape, src, out, op);
}

Tensor& unfold_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t size,
                        int64_t step, Tensor& out) {
  const char* op = "unfold_copy.out";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  const int64_t have = in.dim() == 0 ? 1 : in.size(dim);
  if (size < 0 || size > have || step <= 0) {
    ctx.fail(Error::InvalidArgument, "%s: size %lld / step %lld invalid for dim size %lld", op,
             static_cast<long long>(size), static_cast<long long>(step),
             static_cast<long long>(have));
    return out;
  }
  Shape shape = shape_of(in);
  View src = view_of(in);
  const int64_t stride = in.dim() == 0 ? 1 : in.strides()[dim];
  if (in.dim() > 0) {
    shape.sizes[dim] = static_cast<SizesType>((have - size) / step + 1);
    src.strides[dim] = stride * step;
  }
  src.strides[shape.dim] = stride;
  shape.push(size);
  return copy_view_out(ctx, shape, src, out, op);
}

void split_copy_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t split_size,
                           int64_t dim, TensorList out) {
  if (split_size < 0 || (split_size == 0 && in.dim() > 0 && out.size() != 1)) {
    ctx.fail(Error::InvalidArgument, "split_copy.Tensor_out: invalid split_size %lld",
             static_cast<long long>(split_size));
    return;
  }
  split_impl(ctx, in, {}, split_size, dim, out, "split_copy.Tensor_out");
}

void split_with_sizes_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList sizes,
                               int64_t dim, TensorList out) {
  if (sizes.size() != out.size()) {
    ctx.fail(Error::InvalidArgument, "split_with_sizes_copy.out: %zu sizes for %zu outs",
             sizes.size(), out.size());
    return;
  }
  if (sizes.size() == 0) return;
  split_impl(ctx, in, sizes, 0, dim, out, "split_with_sizes_copy.out");
}

void unbind_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                         TensorList out) {
  const char* op = "unbind_copy.int_out";
  if (in.dim() == 0 || !normalize_dim(ctx, dim, in.dim(), op, &dim)) {
    if (in.dim() == 0) ctx.fail(Error::InvalidArgument, "%s: input must have dims", op);
    return;
  }
  if (int64_t(out.size()) != in.size(dim)) {
    ctx.fail(Error::InvalidArgument, "%s: %zu outs for dim size %d", op, out.size(),
             in.size(dim));
    return;
  }
  for (size_t i = 0; i < out.size(); ++i) select_copy_int_out(ctx, in, dim, int64_t(i), out[i]);
}

Tensor& flip_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, Tensor& out) {
  const char* op = "flip.out";
  bool flip[kMaxTensorDims] = {};
  for (int64_t d : dims) {
    int64_t n = 0;
    if (!normalize_dim(ctx, d, in.dim(), op, &n)) return out;
    if (flip[n]) {
      ctx.fail(Error::InvalidArgument, "%s: dim %lld repeated", op, static_cast<long long>(n));
      return out;
    }
    flip[n] = in.dim() > 0;
  }
  int64_t base = 0;
  View src = view_of(in);
  for (size_t i = 0; i < in.dim(); ++i) {
    if (!flip[i] || in.size(i) == 0) continue;
    base += (in.size(i) - 1) * in.strides()[i];
    src.strides[i] = -src.strides[i];
  }
  src.data = static_cast<char*>(in.mutable_data_ptr()) + base * int64_t(in.element_size());
  return copy_view_out(ctx, shape_of(in), src, out, op);
}

Tensor& repeat_out(KernelRuntimeContext& ctx, const Tensor& in, IntList repeats, Tensor& out) {
  const char* op = "repeat.out";
  if (repeats.size() < in.dim() || 2 * repeats.size() > kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: %zu repeats for a tensor of rank %zu", op,
             repeats.size(), in.dim());
    return out;
  }
  const size_t lead = repeats.size() - in.dim();
  Shape shape;
  for (size_t i = 0; i < repeats.size(); ++i) {
    if (repeats[i] < 0) {
      ctx.fail(Error::InvalidArgument, "%s: negative repeat", op);
      return out;
    }
    shape.push(repeats[i] * (i < lead ? 1 : in.size(i - lead)));
  }
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  // out seen as [r0, s0, r1, s1, ...]; the source repeats with stride 0.
  Shape fine;
  View dst = view_of(out), src = view_of(in);
  for (size_t i = 0; i < repeats.size(); ++i) {
    const int64_t s = i < lead ? 1 : in.size(i - lead);
    const int64_t os = out.strides()[i];
    fine.push(repeats[i]);
    fine.push(s);
    dst.strides[2 * i] = os * s;
    dst.strides[2 * i + 1] = os;
    src.strides[2 * i] = 0;
    src.strides[2 * i + 1] = i < lead ? 0 : in.strides()[i - lead];
  }
  copy_view(fine.sizes, fine.dim, dst, src);
  return out;
}

}  // namespace ember::kernels::portable
