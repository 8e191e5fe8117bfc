// embedding, index_select, gather, scatter, scatter_add, scatter_reduce; see index.h.
#include "kernels/portable/ops/index.h"

#include <cmath>
#include <cstring>
#include <type_traits>

#include "kernels/portable/util/binary.h"
#include "kernels/portable/util/cast.h"
#include "kernels/portable/util/copy.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/math.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;

bool check_index_dtype(KernelRuntimeContext& ctx, const Tensor& index, const char* op) {
  if (index.scalar_type() == ScalarType::Long || index.scalar_type() == ScalarType::Int)
    return true;
  fail_dtype(ctx, index, op, "index (int64 or int32 expected)");
  return false;
}

// index[i] (logical position, any layout) as int64.
int64_t index_at(const Tensor& index, const int64_t* strides, int64_t i) {
  const int64_t off = offset_of(i, index.sizes().data(), strides, index.dim());
  return index.scalar_type() == ScalarType::Long ? index.const_data_ptr<int64_t>()[off]
                                                 : index.const_data_ptr<int32_t>()[off];
}

// Walks every position of `index` (same rank as in/out), calling
// fn(idx_offset_in_index, self_offset_of(position with dim replaced by v), ...).
// Returns false (and fails ctx) on an out-of-range index value.
template <typename F>
bool for_each_scatter(KernelRuntimeContext& ctx, const Tensor& index, int64_t dim,
                      const Tensor& target, const char* op, F&& fn) {
  int64_t xs[kMaxTensorDims];
  tensor_strides(index, xs);
  const int64_t size = target.dim() == 0 ? 1 : target.size(dim);
  bool ok = true;
  for_each_index(index.sizes().data(), index.dim(), [&](const int64_t* idx) {
    if (!ok) return;
    int64_t xo = 0, to = 0;
    for (size_t d = 0; d < index.dim(); ++d) {
      xo += idx[d] * xs[d];
      if (int64_t(d) != dim) to += idx[d] * target.strides()[d];
    }
    int64_t v = index.scalar_type() == ScalarType::Long ? index.const_data_ptr<int64_t>()[xo]
                                                        : index.const_data_ptr<int32_t>()[xo];
    if (v < -size || v >= size) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for dim size %lld", op,
               static_cast<long long>(v), static_cast<long long>(size));
      ok = false;
      return;
    }
    if (v < 0) v += size;
    if (target.dim() > 0) to += v * target.strides()[dim];
    fn(idx, to);
  });
  return ok;
}

// index must have self's rank and sizes <= self's (and <= src's) outside dim.
bool check_gather_shape(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& index,
                        const Tensor* src, int64_t dim, const char* op) {
  bool ok = index.dim() == in.dim() || (index.dim() <= 1 && in.dim() <= 1);
  for (size_t d = 0; ok && d < index.dim() && index.dim() == in.dim(); ++d) {
    if (int64_t(d) != dim && index.size(d) > in.size(d)) ok = false;
    if (src != nullptr && (src->dim() != index.dim() || index.size(d) > src->size(d))) ok = false;
  }
  if (!ok) {
    ctx.fail(Error::InvalidArgument, "%s: index shape must fit the input (and src) shape", op);
  }
  return ok;
}

// The checks every scatter shares: dim in range (normalized into *dim), an int64 index that
// fits self and src, out typed and sized like self, src of self's dtype.
bool check_scatter_args(KernelRuntimeContext& ctx, const Tensor& in, int64_t* dim,
                        const Tensor& index, const Tensor& src, Tensor& out, const char* op) {
  if (!normalize_dim(ctx, *dim, in.dim(), op, dim) || !check_index_dtype(ctx, index, op)) {
    return false;
  }
  if (!check_gather_shape(ctx, in, index, &src, *dim, op)) return false;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") || !resize_like(ctx, out, in, op)) {
    return false;
  }
  if (src.scalar_type() != in.scalar_type()) {
    fail_dtype(ctx, src, op, "src (must match self)");
    return false;
  }
  return true;
}

template <typename Combine>
Tensor& scatter_impl(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, const Tensor& index,
                     const Tensor& src, Tensor& out, const char* op, Combine combine) {
  if (!check_scatter_args(ctx, in, &dim, index, src, out, op)) return out;
  copy_into(in, out);
  int64_t ss[kMaxTensorDims];
  tensor_strides(src, ss);
  dispatch<kAll>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    const S* ps = src.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    for_each_scatter(ctx, index, dim, out, op, [&](const int64_t* idx, int64_t to) {
      int64_t so = 0;
      for (size_t d = 0; d < src.dim(); ++d) so += idx[d] * ss[d];
      po[to] = combine(po[to], ps[so]);
    });
  });
  return out;
}

enum class Reduce { Sum, Prod, Mean, Amax, Amin };

bool parse_reduce(KernelRuntimeContext& ctx, std::string_view r, Reduce* out, const char* op) {
  if (r == "sum")
    *out = Reduce::Sum;
  else if (r == "prod")
    *out = Reduce::Prod;
  else if (r == "mean")
    *out = Reduce::Mean;
  else if (r == "amax")
    *out = Reduce::Amax;
  else if (r == "amin")
    *out = Reduce::Amin;
  else {
    ctx.fail(Error::InvalidArgument, "%s: reduce must be sum, prod, mean, amax or amin", op);
    return false;
  }
  return true;
}

template <typename C>
C reduce_pair(Reduce r, C a, C b) {
  switch (r) {
    case Reduce::Sum:
    case Reduce::Mean:
      return a + b;
    case Reduce::Prod:
      return a * b;
    case Reduce::Amax:
      if constexpr (std::is_floating_point<C>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      }
      return a > b ? a : b;
    case Reduce::Amin:
      if constexpr (std::is_floating_point<C>::value) {
        if (std::isnan(a) || std::isnan(b)) return std::isnan(a) ? a : b;
      }
      return a < b ? a : b;
  }
  return a;
}

}  // namespace

Tensor& scatter_reduce_two_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                               const Tensor& index, const Tensor& src, std::string_view reduce,
                               bool include_self, Tensor& out) {
  const char* op = "scatter_reduce.two_out";
  Reduce r;
  if (!parse_reduce(ctx, reduce, &r, op)) return out;
  if (!check_scatter_args(ctx, in, &dim, index, src, out, op)) return out;
  const int64_t numel = int64_t(out.numel());
  runtime::Result<void*> scratch =
      ctx.allocate_temp(sizeof(int64_t) * size_t(numel > 0 ? numel : 1), alignof(int64_t));
  if (!scratch.ok()) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: needs %lld bytes of temp memory for the counts",
             op, static_cast<long long>(sizeof(int64_t) * size_t(numel)));
    return out;
  }
  int64_t* count = static_cast<int64_t*>(*scratch);
  for (int64_t i = 0; i < numel; ++i) count[i] = 0;
  copy_into(in, out);
  int64_t ss[kMaxTensorDims];
  tensor_strides(src, ss);
  dispatch<kReal>(in.scalar_type(), [&](auto tag) {
    using S = typename decltype(tag)::type;
    using C = compute_t<S>;
    const S* ps = src.const_data_ptr<S>();
    S* po = out.mutable_data_ptr<S>();
    const bool ok = for_each_scatter(ctx, index, dim, out, op, [&](const int64_t* idx, int64_t to) {
      int64_t so = 0;
      for (size_t d = 0; d < src.dim(); ++d) so += idx[d] * ss[d];
      const C v = cast<C>(ps[so]);
      po[to] = count[to] == 0 && !include_self ? cast<S>(v)
                                               : cast<S>(reduce_pair(r, cast<C>(po[to]), v));
      ++count[to];
    });
    if (!ok || r != Reduce::Mean) return;
    for (int64_t i = 0; i < numel; ++i) {
      if (count[i] == 0) continue;
      const C n = C(count[i] + (include_self ? 1 : 0));
      C q = cast<C>(po[i]) / n;
      if constexpr (!std::is_floating_point<C>::value) {
        if ((cast<C>(po[i]) % n != 0) && ((cast<C>(po[i]) < 0) != (n < 0))) q -= 1;
      }
      po[i] = cast<S>(q);
    }
  });
  return out;
}

Tensor& embedding_out(KernelRuntimeContext& ctx, const Tensor& weight, const Tensor& indices,
                      int64_t, bool, bool, Tensor& out) {
  const char* op = "embedding.out";
  if (!check_rank(ctx, weight, 2, op, "weight") || !check_index_dtype(ctx, indices, op)) return out;
  Shape shape;
  for (size_t i = 0; i < indices.dim(); ++i) shape.push(indices.size(i));
  shape.push(weight.size(1));
  if (!check_dtype(ctx, out, weight.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  int64_t xs[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(indices, xs);
  tensor_strides(out, os);
  const int64_t rows = weight.size(0);
  for (int64_t i = 0; i < int64_t(indices.numel()); ++i) {
    const int64_t r = index_at(indices, xs, i);
    if (r < 0 || r >= rows) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for %lld rows", op,
               static_cast<long long>(r), static_cast<long long>(rows));
      return out;
    }
    // Row r of weight -> out[position i, :].
    int64_t base = 0, rest = i;
    for (size_t d = indices.dim(); d-- > 0;) {
      base += (rest % indices.size(d)) * os[d];
      rest /= indices.size(d);
    }
    View dst = view_of(out, base), src = view_of(weight, r * weight.strides()[0]);
    dst.strides[0] = os[out.dim() - 1];
    src.strides[0] = weight.strides()[1];
    const SizesType d = weight.size(1);
    copy_view(&d, 1, dst, src);
  }
  return out;
}

Tensor& index_select_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                         const Tensor& index, Tensor& out) {
  const char* op = "index_select.out";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim) || !check_index_dtype(ctx, index, op))
    return out;
  if (index.dim() > 1) {
    ctx.fail(Error::InvalidArgument, "%s: index must be 0-D or 1-D, got %zu dims", op, index.dim());
    return out;
  }
  Shape shape;
  for (size_t i = 0; i < in.dim(); ++i)
    shape.push(int64_t(i) == dim ? int64_t(index.numel()) : in.size(i));
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, shape.span(), op)) return out;
  const int64_t size = in.dim() == 0 ? 1 : in.size(dim);
  const int64_t xs = index.dim() == 0 ? 0 : index.strides()[0];
  for (int64_t i = 0; i < int64_t(index.numel()); ++i) {
    int64_t v = index_at(index, &xs, i);
    if (v < -size || v >= size) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for dim size %lld", op,
               static_cast<long long>(v), static_cast<long long>(size));
      return out;
    }
    if (v < 0) v += size;
    if (in.dim() == 0) {
      copy_into(in, out);
      continue;
    }
    Shape slice;
    for (size_t d = 0; d < in.dim(); ++d) slice.push(int64_t(d) == dim ? 1 : in.size(d));
    copy_view(slice.sizes, slice.dim, view_of(out, i * out.strides()[dim]),
              view_of(in, v * in.strides()[dim]));
  }
  return out;
}

// out = self with out.select(dim, index[i]) = source.select(dim, i). `out` may be `self`'s
// own storage (a KV cache updated in place): then only the indexed slices are written.
Tensor& index_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                       const Tensor& index, const Tensor& source, Tensor& out) {
  const char* op = "index_copy.out";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim) || !check_index_dtype(ctx, index, op))
    return out;
  if (!check_dtype(ctx, source, in.scalar_type(), op, "source") ||
      !check_dtype(ctx, out, in.scalar_type(), op, "out")) {
    return out;
  }
  const int64_t count = int64_t(index.numel());
  bool fits = index.dim() <= 1 && source.dim() == in.dim();
  for (size_t d = 0; fits && d < in.dim(); ++d) {
    fits = source.size(d) == (int64_t(d) == dim ? count : in.size(d));
  }
  if (!fits || in.dim() == 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: source must have self's shape with %lld entries along dim %lld (index 1-D)", op,
             static_cast<long long>(count), static_cast<long long>(dim));
    return out;
  }
  if (!resize_like(ctx, out, in, op)) return out;
  if (out.const_data_ptr() != in.const_data_ptr()) copy_into(in, out);
  const int64_t size = in.size(dim);
  const int64_t xs = index.dim() == 0 ? 0 : index.strides()[0];
  Shape slice;
  for (size_t d = 0; d < in.dim(); ++d) slice.push(int64_t(d) == dim ? 1 : in.size(d));
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = index_at(index, &xs, i);
    if (v < -size || v >= size) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld out of range for dim size %lld", op,
               static_cast<long long>(v), static_cast<long long>(size));
      return out;
    }
    if (v < 0) v += size;
    copy_view(slice.sizes, slice.dim, view_of(out, v * out.strides()[dim]),
              view_of(source, i * source.strides()[dim]));
  }
  return out;
}

Tensor& gather_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, const Tensor& index,
                   bool, Tensor& out) {
  const char* op = "gather.out";
  if (!normalize_dim(ctx, dim, in.dim(), op, &dim)) return out;
  if (!check_dtype(ctx, index, ScalarType::Long, op, "index")) return out;
  if (!check_gather_shape(ctx, in, index, nullptr, dim, op)) return out;
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out")) return out;
  if (!resize_out(ctx, out, index.sizes(), op)) return out;
  int64_t os[kMaxTensorDims];
  tensor_strides(out, os);
  const size_t es = in.element_size();
  const char* pi = static_cast<const char*>(in.const_data_ptr());
  char* po = static_cast<char*>(out.mutable_data_ptr());
  for_each_scatter(ctx, index, dim, in, op, [&](const int64_t* idx, int64_t from) {
    int64_t oo = 0;
    for (size_t d = 0; d < out.dim(); ++d) oo += idx[d] * os[d];
    std::memcpy(po + oo * es, pi + from * es, es);
  });
  return out;
}

Tensor& scatter_src_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        const Tensor& index, const Tensor& src, Tensor& out) {
  return scatter_impl(ctx, in, dim, index, src, out, "scatter.src_out",
                      [](auto, auto s) { return s; });
}

Tensor& scatter_value_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                          const Tensor& index, const Scalar& value, Tensor& out) {
  ScalarTensor v(in.scalar_type(), value);
  // Broadcast the value to index's shape through zero strides.
  const Tensor& vt = v.tensor();
  SizesType sizes[kMaxTensorDims];
  runtime::DimOrderType order[kMaxTensorDims];
  runtime::StridesType strides[kMaxTensorDims];
  const size_t rank = index.dim() < kMaxTensorDims ? index.dim() : kMaxTensorDims;
  for (size_t d = 0; d < rank; ++d) {
    sizes[d] = index.size(d);
    order[d] = static_cast<runtime::DimOrderType>(d);
  }
  Tensor expanded(vt.scalar_type(), rank, sizes, order, strides, vt.mutable_data_ptr());
  for (size_t d = 0; d < rank; ++d) strides[d] = 0;
  return scatter_impl(ctx, in, dim, index, expanded, out, "scatter.value_out",
                      [](auto, auto s) { return s; });
}

Tensor& scatter_add_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        const Tensor& index, const Tensor& src, Tensor& out) {
  return scatter_impl(ctx, in, dim, index, src, out, "scatter_add.out", [](auto a, auto b) {
    using S = decltype(a);
    using C = compute_t<S>;
    if constexpr (std::is_same<S, bool>::value) {
      return a || b;
    } else {
      return cast<S>(add_wrap<C>(cast<C>(a), cast<C>(b)));
    }
  });
}

}  // namespace ember::kernels::portable
