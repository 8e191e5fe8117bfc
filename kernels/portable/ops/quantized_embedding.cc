// embedding_byte_out (see quantized_embedding.h).
#include "kernels/portable/ops/quantized_embedding.h"

#include <cstring>

#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::KernelRuntimeContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

bool check_args(KernelRuntimeContext& ctx, const Tensor& w, const Tensor& s, const Tensor* zp,
                int64_t qmin, int64_t qmax, const Tensor& idx, const char* op) {
  if (w.scalar_type() != ScalarType::Char || w.dim() != 2 || !is_row_major(w)) {
    ctx.fail(Error::InvalidArgument, "%s: weight must be a contiguous int8 [rows, dim] tensor", op);
    return false;
  }
  if (s.scalar_type() != ScalarType::Float || (s.dim() != 1 && s.dim() != 2) ||
      s.size(0) != w.size(0) || !is_row_major(s)) {
    ctx.fail(Error::InvalidArgument,
             "%s: weight_scales must be float32 [rows] or [rows, groups] with rows = %d", op,
             int(w.size(0)));
    return false;
  }
  const int64_t groups = s.dim() == 2 ? s.size(1) : 1;
  if (groups <= 0 || w.size(1) % groups != 0) {
    ctx.fail(Error::InvalidArgument, "%s: %lld groups do not divide %d columns", op,
             static_cast<long long>(groups), int(w.size(1)));
    return false;
  }
  if (zp != nullptr && (zp->scalar_type() != ScalarType::Float || zp->numel() != s.numel())) {
    ctx.fail(Error::InvalidArgument, "%s: weight_zero_points must be float32 shaped like the scales",
             op);
    return false;
  }
  if (qmin < -128 || qmax > 127 || qmin > qmax) {
    ctx.fail(Error::InvalidArgument, "%s: quant range [%lld, %lld] is not within int8", op,
             static_cast<long long>(qmin), static_cast<long long>(qmax));
    return false;
  }
  if ((idx.scalar_type() != ScalarType::Long && idx.scalar_type() != ScalarType::Int) ||
      !is_row_major(idx)) {
    ctx.fail(Error::InvalidArgument, "%s: indices must be contiguous int64 or int32", op);
    return false;
  }
  return true;
}

}  // namespace

Tensor& embedding_byte_out(KernelRuntimeContext& ctx, const Tensor& weight,
                           const Tensor& weight_scales, const Tensor* weight_zero_points,
                           int64_t quant_min, int64_t quant_max, const Tensor& indices,
                           Tensor& out) {
  const char* op = "quantized_decomposed::embedding_byte.out";
  if (!check_args(ctx, weight, weight_scales, weight_zero_points, quant_min, quant_max, indices,
                  op)) {
    return out;
  }
  if (out.scalar_type() != ScalarType::Float) {
    ctx.fail(Error::InvalidArgument, "%s: out must be float32", op);
    return out;
  }
  if (indices.dim() + 1 > runtime::kMaxTensorDims) {
    ctx.fail(Error::InvalidArgument, "%s: indices have too many dims", op);
    return out;
  }
  SizesType shape[runtime::kMaxTensorDims];
  for (size_t i = 0; i < indices.dim(); ++i) shape[i] = indices.size(i);
  shape[indices.dim()] = weight.size(1);
  if (!resize_out(ctx, out, {shape, indices.dim() + 1}, op)) return out;
  const int64_t rows = weight.size(0), dim = weight.size(1);
  const int64_t groups = weight_scales.dim() == 2 ? weight_scales.size(1) : 1;
  const int64_t group = dim / groups;
  const int8_t* w = weight.const_data_ptr<int8_t>();
  const float* s = weight_scales.const_data_ptr<float>();
  const float* zp = weight_zero_points ? weight_zero_points->const_data_ptr<float>() : nullptr;
  float* o = out.mutable_data_ptr<float>();
  const bool wide = indices.scalar_type() == ScalarType::Long;
  for (int64_t i = 0; i < int64_t(indices.numel()); ++i) {
    const int64_t r =
        wide ? indices.const_data_ptr<int64_t>()[i] : indices.const_data_ptr<int32_t>()[i];
    if (r < 0 || r >= rows) {
      ctx.fail(Error::InvalidArgument, "%s: index %lld (position %lld) out of range for %lld rows",
               op, static_cast<long long>(r), static_cast<long long>(i),
               static_cast<long long>(rows));
      return out;
    }
    const int8_t* src = w + r * dim;
    float* dst = o + i * dim;
    for (int64_t g = 0; g < groups; ++g) {
      const float scale = s[r * groups + g];
      const float z = zp ? zp[r * groups + g] : 0.f;
      for (int64_t c = g * group; c < (g + 1) * group; ++c) {
        if (src[c] < quant_min || src[c] > quant_max) {
          ctx.fail(Error::InvalidArgument, "%s: weight [%lld, %lld] = %d is outside [%lld, %lld]",
                   op, static_cast<long long>(r), static_cast<long long>(c), int(src[c]),
                   static_cast<long long>(quant_min), static_cast<long long>(quant_max));
          return out;
        }
        dst[c] = (float(src[c]) - z) * scale;
      }
    }
  }
  return out;
}

}  // namespace ember::kernels::portable
