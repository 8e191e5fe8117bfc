// unique2_out (see unique.h).
#include "kernels/portable/ops/unique.h"

#include <algorithm>

#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/loop.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

namespace {

using runtime::Error;
using runtime::ScalarType;
using runtime::SizesType;

template <typename T>
void unique_typed(KernelRuntimeContext& ctx, const Tensor& in, bool return_inverse,
                  bool return_counts, Tensor& out, Tensor& inverse, Tensor& counts,
                  const char* op) {
  const int64_t n = int64_t(in.numel());
  const int64_t capacity = int64_t(out.capacity_numel());
  int64_t is[kMaxTensorDims];
  tensor_strides(in, is);
  const T* pi = in.const_data_ptr<T>();
  auto at = [&](int64_t i) { return pi[offset_of(i, in.sizes().data(), is, in.dim())]; };
  // The distinct values so far, sorted, in out's own memory (up to its capacity).
  T* values = out.mutable_data_ptr<T>();
  int64_t u = 0;
  for (int64_t i = 0; i < n; ++i) {
    const T x = at(i);
    T* pos = std::lower_bound(values, values + u, x);
    if (pos != values + u && !(x < *pos)) continue;
    if (u == capacity) {
      ctx.fail(Error::InvalidArgument,
               "%s: more than %lld distinct values: out exceeds its upper bound of %lld "
               "elements (the data-dependent size planned for it; raise it with lower --max_dim)",
               op, static_cast<long long>(capacity), static_cast<long long>(capacity));
      return;
    }
    std::copy_backward(pos, values + u, values + u + 1);
    *pos = x;
    ++u;
  }
  const SizesType size = static_cast<SizesType>(u);
  if (!resize_out(ctx, out, {&size, 1}, op)) return;
  values = out.mutable_data_ptr<T>();
  if (return_inverse) {
    if (!resize_out(ctx, inverse, in.sizes(), op)) return;
  } else {
    const SizesType zero = 0;
    if (!resize_out(ctx, inverse, {&zero, inverse.dim() == 1 ? size_t(1) : size_t(0)}, op)) return;
  }
  const SizesType counts_size = return_counts ? size : 0;
  if (!resize_out(ctx, counts, {&counts_size, 1}, op)) return;
  int64_t* pc = counts.mutable_data_ptr<int64_t>();
  for (int64_t k = 0; k < int64_t(counts_size); ++k) pc[k] = 0;
  int64_t* pv = return_inverse ? inverse.mutable_data_ptr<int64_t>() : nullptr;
  for (int64_t i = 0; i < n; ++i) {
    const int64_t k = std::lower_bound(values, values + u, at(i)) - values;
    if (pv != nullptr) pv[i] = k;  // inverse is contiguous, like in's logical order
    if (return_counts) ++pc[k];
  }
}

}  // namespace

void unique2_out(KernelRuntimeContext& ctx, const Tensor& in, bool /*sorted*/, bool return_inverse,
                 bool return_counts, Tensor& out, Tensor& inverse, Tensor& counts) {
  const char* op = "_unique2.out";
  if (!check_dtype(ctx, out, in.scalar_type(), op, "out") ||
      !check_dtype(ctx, inverse, ScalarType::Long, op, "inverse") ||
      !check_dtype(ctx, counts, ScalarType::Long, op, "counts") ||
      !check_rank(ctx, out, 1, op, "out") || !check_rank(ctx, counts, 1, op, "counts")) {
    return;
  }
  const bool ok = dispatch<kBool | kInts | kFloats>(in.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    unique_typed<T>(ctx, in, return_inverse, return_counts, out, inverse, counts, op);
  });
  if (!ok) fail_dtype(ctx, in, op, "self");
}

}  // namespace ember::kernels::portable
