// Reduction planning; see reduce.h.
#include "kernels/portable/util/reduce.h"

namespace ember::kernels::portable {

bool reduction_mask(KernelRuntimeContext& ctx, const Tensor& in, std::optional<IntList> dims,
                    bool* mask, const char* op) {
  const bool all = !dims.has_value() || dims->size() == 0;
  for (size_t i = 0; i < kMaxTensorDims; ++i) mask[i] = all && i < in.dim();
  if (all) return true;
  for (int64_t d : *dims) {
    int64_t n = 0;
    if (!normalize_dim(ctx, d, in.dim(), op, &n)) return false;
    if (in.dim() == 0) continue;
    if (mask[n]) {
      ctx.fail(runtime::Error::InvalidArgument, "%s: dim %lld appears more than once", op,
               static_cast<long long>(n));
      return false;
    }
    mask[n] = true;
  }
  return true;
}

Shape reduced_shape(const Tensor& in, const bool* mask, bool keepdim) {
  Shape s;
  for (size_t i = 0; i < in.dim(); ++i) {
    if (!mask[i]) {
      s.push(in.size(i));
    } else if (keepdim) {
      s.push(1);
    }
  }
  return s;
}

bool check_nonempty_reduction(KernelRuntimeContext& ctx, const Tensor& in, const bool* mask,
                              const char* op) {
  for (size_t i = 0; i < in.dim(); ++i) {
    if (mask[i] && in.size(i) == 0) {
      ctx.fail(runtime::Error::InvalidArgument,
               "%s: expected reduction dim %zu to have non-zero size", op, i);
      return false;
    }
  }
  return true;
}

ReducePlan::ReducePlan(const Tensor& in, const bool* mask, const Tensor& out, bool keepdim)
    : kept_(make_kept(in, mask, out, keepdim)), reduced_(make_reduced(in, mask)) {
  for (size_t i = 0; i < in.dim(); ++i) {
    if (mask[i]) reduced_numel_ *= in.size(i);
  }
}

StridedLoop<2> ReducePlan::make_kept(const Tensor& in, const bool* mask, const Tensor& out,
                                     bool keepdim) {
  int64_t strides[2][kMaxTensorDims];
  SizesType sizes[kMaxTensorDims];
  size_t k = 0;
  for (size_t i = 0; i < in.dim(); ++i) {
    if (mask[i]) {
      sizes[i] = 1;
      strides[0][i] = 0;
      strides[1][i] = 0;
      if (keepdim) ++k;
      continue;
    }
    sizes[i] = in.size(i);
    strides[0][i] = in.strides()[i];
    strides[1][i] = out.strides()[k++];
  }
  return StridedLoop<2>(sizes, in.dim_order().data(), in.dim(), strides);
}

StridedLoop<1> ReducePlan::make_reduced(const Tensor& in, const bool* mask) {
  int64_t strides[1][kMaxTensorDims];
  SizesType sizes[kMaxTensorDims];
  for (size_t i = 0; i < in.dim(); ++i) {
    sizes[i] = mask[i] ? in.size(i) : 1;
    strides[0][i] = in.strides()[i];
  }
  return StridedLoop<1>(sizes, in.dim_order().data(), in.dim(), strides);
}

}  // namespace ember::kernels::portable
