// Shape helpers; see tensor_util.h.
#include "kernels/portable/util/tensor_util.h"

#include "kernels/portable/util/promote.h"

namespace ember::kernels::portable {

namespace {
const char* desc(const Tensor& t, char* buf, size_t n) { return runtime::describe(t, buf, n); }
}  // namespace

bool resize_out_failed(KernelRuntimeContext& ctx, Error e, const char* op) {
  runtime::annotate(e, "%s: out", op);
  ctx.fail(e);
  return false;
}

bool resize_like_failed(KernelRuntimeContext& ctx, const Tensor& out, const Tensor& like,
                        const char* op) {
  char a[96], b[96];
  ctx.fail(Error::InvalidArgument, "%s: out %s must have the rank of %s", op,
           desc(out, a, sizeof(a)), desc(like, b, sizeof(b)));
  return false;
}

bool normalize_dim_failed(KernelRuntimeContext& ctx, int64_t dim, size_t rank, const char* op) {
  ctx.fail(Error::InvalidArgument, "%s: dim %lld out of range for a tensor of rank %zu", op,
           static_cast<long long>(dim), rank);
  return false;
}

bool check_dtype_failed(KernelRuntimeContext& ctx, const Tensor& t, runtime::ScalarType expected,
                        const char* op, const char* what) {
  ctx.fail(Error::InvalidType, "%s: %s must be %s, got %s", op, what,
           runtime::scalar_type_name(expected), runtime::scalar_type_name(t.scalar_type()));
  return false;
}

void fail_dtype(KernelRuntimeContext& ctx, const Tensor& t, const char* op, const char* what) {
  ctx.fail(Error::InvalidType, "%s: unsupported dtype %s for %s", op,
           runtime::scalar_type_name(t.scalar_type()), what);
}

bool check_same_shape(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b,
                      const char* op) {
  bool same = a.dim() == b.dim();
  for (size_t i = 0; same && i < a.dim(); ++i) same = a.size(i) == b.size(i);
  if (same) return true;
  char x[96], y[96];
  ctx.fail(Error::InvalidArgument, "%s: shapes differ: %s vs %s", op, desc(a, x, sizeof(x)),
           desc(b, y, sizeof(y)));
  return false;
}

bool check_out_dtype_slow(KernelRuntimeContext& ctx, const Tensor& out,
                          runtime::ScalarType computed, const char* op) {
  if (can_cast(computed, out.scalar_type())) return true;
  ctx.fail(Error::InvalidType, "%s: result type %s can't be cast to the out dtype %s", op,
           runtime::scalar_type_name(computed), runtime::scalar_type_name(out.scalar_type()));
  return false;
}

bool check_rank_failed(KernelRuntimeContext& ctx, const Tensor& t, size_t rank, const char* op,
                       const char* what) {
  char x[96];
  ctx.fail(Error::InvalidArgument, "%s: %s must have %zu dims, got %s", op, what, rank,
           desc(t, x, sizeof(x)));
  return false;
}

bool broadcast_shape_slow(KernelRuntimeContext& ctx, Span<const SizesType> a,
                          Span<const SizesType> b, Shape* out, const char* op) {
  const size_t rank = a.size() > b.size() ? a.size() : b.size();
  out->dim = rank;
  for (size_t i = 0; i < rank; ++i) {
    const size_t from_end = rank - 1 - i;
    const SizesType sa = from_end < a.size() ? a[a.size() - 1 - from_end] : 1;
    const SizesType sb = from_end < b.size() ? b[b.size() - 1 - from_end] : 1;
    if (sa != sb && sa != 1 && sb != 1) {
      ctx.fail(Error::InvalidArgument,
               "%s: shapes don't broadcast: size %d vs %d at dim %zu of the result", op, sa, sb,
               i);
      return false;
    }
    out->sizes[i] = sa == 1 ? sb : sa;
  }
  return true;
}

void broadcast_strides(const Tensor& t, size_t rank, int64_t* strides) {
  const size_t lead = rank - t.dim();
  for (size_t i = 0; i < rank; ++i) {
    if (i < lead || t.size(i - lead) == 1) {
      strides[i] = 0;
    } else {
      strides[i] = t.strides()[i - lead];
    }
  }
}

int64_t shape_numel(Span<const SizesType> sizes) {
  int64_t n = 1;
  for (SizesType s : sizes) n *= s;
  return n;
}


}  // namespace ember::kernels::portable
