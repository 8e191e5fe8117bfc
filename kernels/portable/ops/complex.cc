// complex64 kernels (see complex.h) and view_as_real_copy.out (view.h).
#include "kernels/portable/ops/complex.h"

#include <cmath>

#include "kernels/portable/ops/view.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// Calls f(complex offset in c, float offset of the real part in r) for every element of the
// complex tensor `c` (shape S) and the float tensor `r` (shape S + [2]).
template <typename F>
void for_each_pair(const Tensor& c, const Tensor& r, F f) {
  int64_t cs[kMaxTensorDims], rs[kMaxTensorDims];
  tensor_strides(c, cs);
  tensor_strides(r, rs);
  for (int64_t i = 0; i < static_cast<int64_t>(c.numel()); ++i) {
    f(offset_of(i, c.sizes().data(), cs, c.dim()), offset_of(i, c.sizes().data(), rs, c.dim()),
      rs[c.dim()]);
  }
}

// out's sizes for `in` with a trailing pair dim added (to_real) or removed.
bool pair_shape(KernelRuntimeContext& ctx, const Tensor& in, bool to_real, Tensor& out,
                const char* op) {
  SizesType shape[kMaxTensorDims];
  size_t rank = in.dim();
  if (to_real) {
    if (rank + 1 > kMaxTensorDims) {
      ctx.fail(Error::InvalidArgument, "%s: rank %zu is the maximum", op, rank);
      return false;
    }
    for (size_t k = 0; k < rank; ++k) shape[k] = in.sizes()[k];
    shape[rank++] = 2;
  } else {
    if (rank == 0 || in.size(rank - 1) != 2) {
      ctx.fail(Error::InvalidArgument, "%s: the last dim must have size 2", op);
      return false;
    }
    for (size_t k = 0; k + 1 < rank; ++k) shape[k] = in.sizes()[k];
    --rank;
  }
  return resize_out(ctx, out, {shape, rank}, op);
}

}  // namespace

Tensor& complex_abs_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  const char* op = "abs.out";
  if (in.scalar_type() != ScalarType::ComplexFloat) {
    fail_dtype(ctx, in, op, "input (complex64 is the one complex dtype)");
    return out;
  }
  if (!check_dtype(ctx, out, ScalarType::Float, op, "out") || !resize_like(ctx, out, in, op)) {
    return out;
  }
  int64_t is[kMaxTensorDims], os[kMaxTensorDims];
  tensor_strides(in, is);
  tensor_strides(out, os);
  const float* pi = in.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  for (int64_t i = 0; i < static_cast<int64_t>(in.numel()); ++i) {
    const float* v = pi + 2 * offset_of(i, in.sizes().data(), is, in.dim());
    po[offset_of(i, in.sizes().data(), os, in.dim())] = std::hypot(v[0], v[1]);
  }
  return out;
}

Tensor& view_as_real_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  const char* op = "view_as_real_copy.out";
  if (in.scalar_type() != ScalarType::ComplexFloat) {
    fail_dtype(ctx, in, op, "input (complex64 is the one complex dtype)");
    return out;
  }
  if (!check_dtype(ctx, out, ScalarType::Float, op, "out") ||
      !pair_shape(ctx, in, true, out, op)) {
    return out;
  }
  const float* pi = in.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  for_each_pair(in, out, [&](int64_t c, int64_t r, int64_t step) {
    po[r] = pi[2 * c];
    po[r + step] = pi[2 * c + 1];
  });
  return out;
}

Tensor& view_as_complex_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out) {
  const char* op = "view_as_complex_copy.out";
  if (in.scalar_type() != ScalarType::Float) {
    fail_dtype(ctx, in, op, "input (float32 pairs make complex64)");
    return out;
  }
  if (!check_dtype(ctx, out, ScalarType::ComplexFloat, op, "out") ||
      !pair_shape(ctx, in, false, out, op)) {
    return out;
  }
  const float* pi = in.const_data_ptr<float>();
  float* po = out.mutable_data_ptr<float>();
  for_each_pair(out, in, [&](int64_t c, int64_t r, int64_t step) {
    po[2 * c] = pi[r];
    po[2 * c + 1] = pi[r + step];
  });
  return out;
}

}  // namespace ember::kernels::portable
