// linear_8da8w_out / linear_8da4w_out (see quantized_linear.h).
#include "kernels/portable/ops/quantized_linear.h"

#include "kernels/portable/util/qlinear.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::portable {

using runtime::Error;
using runtime::KernelRuntimeContext;
using runtime::ScalarType;
using runtime::Tensor;

namespace {

// Checks the operands shared by both operators; n and k from the weight ([N, K] or, 4-bit,
// [N, K / 2]).
bool check_common(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
                  int64_t k, const Tensor* bias, Tensor& out, const char* op) {
  if (input.scalar_type() != ScalarType::Float || input.dim() < 1 || !is_row_major(input)) {
    ctx.fail(Error::InvalidArgument, "%s: input must be a contiguous float32 tensor", op);
    return false;
  }
  if (input.size(input.dim() - 1) != k) {
    ctx.fail(Error::InvalidArgument, "%s: input has %d features, the weight expects %lld", op,
             int(input.size(input.dim() - 1)), static_cast<long long>(k));
    return false;
  }
  const int64_t n = weight.size(0);
  if (bias != nullptr && (bias->scalar_type() != ScalarType::Float || bias->dim() != 1 ||
                          bias->size(0) != n)) {
    ctx.fail(Error::InvalidArgument, "%s: bias must be float32 [%lld]", op,
             static_cast<long long>(n));
    return false;
  }
  if (!check_dtype(ctx, out, ScalarType::Float, op, "out")) return false;
  if (input.dim() > runtime::kMaxTensorDims) return false;
  SizesType shape[runtime::kMaxTensorDims];
  for (size_t i = 0; i + 1 < input.dim(); ++i) shape[i] = input.size(i);
  shape[input.dim() - 1] = SizesType(n);
  return resize_out(ctx, out, {shape, input.dim()}, op);
}

Tensor& run(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
            const Tensor& weight_scales, int64_t k, int64_t block, const Tensor* bias, Tensor& out,
            const char* op) {
  const int64_t n = weight.size(0);
  const int64_t m = k == 0 ? 0 : int64_t(input.numel()) / k;
  if (m == 0 || n == 0) return out;
  const size_t qbytes = size_t(m * k), sbytes = size_t(m) * 4,
               cbytes = block ? size_t(m * (k / 32)) * 4 : 0;
  auto buf = ctx.allocate_temp(qbytes + sbytes + cbytes + 8, 64);
  if (!buf.ok()) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: no temp memory for a %lld x %lld int8 input", op,
             static_cast<long long>(m), static_cast<long long>(k));
    return out;
  }
  uint8_t* p = static_cast<uint8_t*>(buf.get());
  float* scales = reinterpret_cast<float*>(p);
  int32_t* sums = block ? reinterpret_cast<int32_t*>(p + sbytes) : nullptr;
  int8_t* q = reinterpret_cast<int8_t*>(p + sbytes + cbytes);
  quantize_rows_int8(input.const_data_ptr<float>(), m, k, k, q, scales, sums);
  QLinearArgs a;
  a.m = m;
  a.k = k;
  a.n = n;
  a.a = q;
  a.a_scales = scales;
  a.a_chunk_sums = sums;
  a.w = weight.const_data_ptr();
  a.w_scales = weight_scales.const_data_ptr<float>();
  a.block = block;
  a.bias = bias ? bias->const_data_ptr<float>() : nullptr;
  a.out = out.mutable_data_ptr<float>();
  qlinear(a, ctx.thread_pool());
  return out;
}

}  // namespace

Tensor& linear_8da8w_out(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
                         const Tensor& weight_scales, const Tensor* bias, Tensor& out) {
  const char* op = "ember_quantized::linear_8da8w.out";
  if (weight.scalar_type() != ScalarType::Char || weight.dim() != 2 || !is_row_major(weight)) {
    ctx.fail(Error::InvalidArgument, "%s: weight must be a contiguous int8 [out, in] tensor", op);
    return out;
  }
  if (weight_scales.scalar_type() != ScalarType::Float || weight_scales.dim() != 1 ||
      weight_scales.size(0) != weight.size(0)) {
    ctx.fail(Error::InvalidArgument, "%s: weight_scales must be float32 [%d]", op,
             int(weight.size(0)));
    return out;
  }
  const int64_t k = weight.size(1);
  if (!check_common(ctx, input, weight, k, bias, out, op)) return out;
  return run(ctx, input, weight, weight_scales, k, 0, bias, out, op);
}

Tensor& linear_8da4w_out(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
                         const Tensor& weight_scales, int64_t group_size, const Tensor* bias,
                         Tensor& out) {
  const char* op = "ember_quantized::linear_8da4w.out";
  if ((weight.scalar_type() != ScalarType::Byte && weight.scalar_type() != ScalarType::Char) ||
      weight.dim() != 2 || !is_row_major(weight)) {
    ctx.fail(Error::InvalidArgument,
             "%s: weight must be a contiguous uint8 [out, in / 2] tensor (packed 4-bit)", op);
    return out;
  }
  const int64_t k = int64_t(weight.size(1)) * 2;
  if (group_size != 32 && group_size != 64 && group_size != 128) {
    ctx.fail(Error::InvalidArgument, "%s: group_size %lld is not 32, 64 or 128", op,
             static_cast<long long>(group_size));
    return out;
  }
  if (k % group_size != 0) {
    ctx.fail(Error::InvalidArgument, "%s: group_size %lld does not divide %lld input features",
             op, static_cast<long long>(group_size), static_cast<long long>(k));
    return out;
  }
  if (weight_scales.scalar_type() != ScalarType::Float || weight_scales.dim() != 2 ||
      weight_scales.size(0) != weight.size(0) || weight_scales.size(1) != k / group_size ||
      !is_row_major(weight_scales)) {
    ctx.fail(Error::InvalidArgument, "%s: weight_scales must be float32 [%d, %lld]", op,
             int(weight.size(0)), static_cast<long long>(k / group_size));
    return out;
  }
  if (!check_common(ctx, input, weight, k, bias, out, op)) return out;
  return run(ctx, input, weight, weight_scales, k, group_size, bias, out, op);
}

}  // namespace ember::kernels::portable
