// Shape helpers shared by the portable kernels: checks that fail the kernel
// context with a message naming expected versus actual, out resizing, dim
// normalisation, broadcasting, and logical-index -> memory-offset arithmetic
// over a tensor's strides (so every kernel honours any dim order).
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::KernelRuntimeContext;
using runtime::SizesType;
using runtime::Span;
using runtime::Tensor;
using runtime::kMaxTensorDims;

// A shape built by a kernel (fixed capacity, no allocation).
struct Shape {
  SizesType sizes[kMaxTensorDims] = {};
  size_t dim = 0;
  Span<const SizesType> span() const { return {sizes, dim}; }
  void push(int64_t s) { sizes[dim++] = static_cast<SizesType>(s); }
};

// The checks below are inline with their failure paths out of line (*_failed, which fail
// ctx and return false): every tiny kernel call passes several of them.
bool resize_out_failed(KernelRuntimeContext& ctx, Error e, const char* op);
bool resize_like_failed(KernelRuntimeContext& ctx, const Tensor& out, const Tensor& like,
                        const char* op);
bool normalize_dim_failed(KernelRuntimeContext& ctx, int64_t dim, size_t rank, const char* op);
bool check_dtype_failed(KernelRuntimeContext& ctx, const Tensor& t, runtime::ScalarType expected,
                        const char* op, const char* what);
bool check_rank_failed(KernelRuntimeContext& ctx, const Tensor& t, size_t rank, const char* op,
                       const char* what);

// Resizes `out` to `sizes`; on failure fails `ctx` (the message is recorded by
// resize) and returns false.
inline bool resize_out(KernelRuntimeContext& ctx, Tensor& out, Span<const SizesType> sizes,
                       const char* op) {
  const Error e = out.resize(sizes);
  return e == Error::Ok || resize_out_failed(ctx, e, op);
}
// Resizes `out` to the shape of `like`.
inline bool resize_like(KernelRuntimeContext& ctx, Tensor& out, const Tensor& like,
                        const char* op) {
  if (out.dim() != like.dim()) return resize_like_failed(ctx, out, like, op);
  return resize_out(ctx, out, like.sizes(), op);
}

// Normalises dim in [-rank, rank) (rank 0 accepts -1 and 0); fails otherwise.
inline bool normalize_dim(KernelRuntimeContext& ctx, int64_t dim, size_t rank, const char* op,
                          int64_t* out) {
  const int64_t r = rank == 0 ? 1 : static_cast<int64_t>(rank);
  if (dim < -r || dim >= r) return normalize_dim_failed(ctx, dim, rank, op);
  *out = dim < 0 ? dim + r : dim;
  return true;
}

// Fails with InvalidType unless `t` has dtype `expected`.
inline bool check_dtype(KernelRuntimeContext& ctx, const Tensor& t, runtime::ScalarType expected,
                        const char* op, const char* what) {
  return t.scalar_type() == expected || check_dtype_failed(ctx, t, expected, op, what);
}
// Fails with InvalidType naming the dtype (for unsupported dtypes in dispatch).
void fail_dtype(KernelRuntimeContext& ctx, const Tensor& t, const char* op, const char* what);
// Fails with InvalidArgument unless a and b have equal sizes.
bool check_same_shape(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                      const char* op);
// Fails with InvalidType unless out's dtype can hold `computed` (torch can_cast).
bool check_out_dtype_slow(KernelRuntimeContext& ctx, const Tensor& out,
                          runtime::ScalarType computed, const char* op);
inline bool check_out_dtype(KernelRuntimeContext& ctx, const Tensor& out,
                            runtime::ScalarType computed, const char* op) {
  return out.scalar_type() == computed || check_out_dtype_slow(ctx, out, computed, op);
}
// Fails with InvalidArgument unless `t` has `rank` dims.
inline bool check_rank(KernelRuntimeContext& ctx, const Tensor& t, size_t rank, const char* op,
                       const char* what) {
  return t.dim() == rank || check_rank_failed(ctx, t, rank, op, what);
}

// Broadcast shape of a and b (numpy rules); fails on a mismatch. Equal shapes inline.
bool broadcast_shape_slow(KernelRuntimeContext& ctx, Span<const SizesType> a,
                          Span<const SizesType> b, Shape* out, const char* op);
inline bool broadcast_shape(KernelRuntimeContext& ctx, Span<const SizesType> a,
                            Span<const SizesType> b, Shape* out, const char* op) {
  if (a.size() == 0 || b.size() == 0) {  // a 0-dim operand (a wrapped scalar) takes the other's
    const Span<const SizesType> s = a.size() == 0 ? b : a;
    for (size_t d = 0; d < s.size(); ++d) out->sizes[d] = s[d];
    out->dim = s.size();
    return true;
  }
  if (a.size() == b.size()) {
    size_t i = 0;
    while (i < a.size() && a[i] == b[i]) ++i;
    if (i == a.size()) {
      for (size_t d = 0; d < a.size(); ++d) out->sizes[d] = a[d];
      out->dim = a.size();
      return true;
    }
  }
  return broadcast_shape_slow(ctx, a, b, out, op);
}

// Strides (in elements) of `t` seen as a tensor of rank `rank` broadcast to
// `sizes`: leading and size-1 dims get stride 0.
void broadcast_strides(const Tensor& t, size_t rank, int64_t* strides);

// Memory offset (in elements) of logical row-major index `linear` of a tensor
// with these sizes and strides.
inline int64_t offset_of(int64_t linear, const SizesType* sizes, const int64_t* strides,
                         size_t rank) {
  int64_t off = 0;
  for (size_t d = rank; d-- > 0;) {
    const int64_t s = sizes[d];
    off += (linear % s) * strides[d];
    linear /= s;
  }
  return off;
}

// strides() of a tensor widened to int64.
inline void tensor_strides(const Tensor& t, int64_t* strides) {
  for (size_t i = 0; i < t.dim(); ++i) strides[i] = t.strides()[i];
}

// Numel of sizes.
int64_t shape_numel(Span<const SizesType> sizes);

// Whether t and u have the same sizes and dim order (flat loops apply).
// Tensor::is_contiguous_dim_order inline, for the per-call checks of small kernels.
inline bool is_row_major(const Tensor& t) {
  const runtime::DimOrderType* order = t.dim_order().data();
  if (order == nullptr) return true;
  for (size_t i = 0; i < t.dim(); ++i) {
    if (order[i] != i) return false;
  }
  return true;
}

inline bool same_layout(const Tensor& t, const Tensor& u) {
  if (t.dim() != u.dim()) return false;
  for (size_t i = 0; i < t.dim(); ++i) {
    if (t.size(i) != u.size(i)) return false;
    if (t.size(i) != 1 && t.strides()[i] != u.strides()[i]) return false;
  }
  return true;
}

}  // namespace ember::kernels::portable
