// Matrix products (ATen out variants): mm, bmm, addmm, linear. float32 runs on the
// blocked GEMM (util/gemm.h, thread pool aware); other dtypes on a plain loop
// accumulating in the compute type. linear reads its weight as stored, [N, K] (no
// transposed copy): one row of input (a decode step) is N dot products over contiguous
// rows of the weight (the GEMM's few-columns path on out^T = W x^T).
#pragma once

#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::Tensor;

Tensor& mm_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& bmm_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, Tensor& out);
Tensor& addmm_out(KernelRuntimeContext& ctx, const Tensor& self, const Tensor& a,
                  const Tensor& b, const Scalar& beta, const Scalar& alpha, Tensor& out);
// out[..., n] = sum_k input[..., k] * weight[n, k] + bias[n] (bias may be null).
Tensor& linear_out(KernelRuntimeContext& ctx, const Tensor& input, const Tensor& weight,
                   const Tensor* bias, Tensor& out);

}  // namespace ember::kernels::portable
