// Normalization kernels (ATen out variants): batch norm (inference, training
// with running stats, and without stats), layer norm and group norm. Each
// returns (out, saved mean, saved inverse std) as ATen does; statistics
// accumulate in double.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

void batch_norm_no_training_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                                const Tensor* bias, const Tensor& running_mean,
                                const Tensor& running_var, double momentum, double eps,
                                Tensor& out, Tensor& save_mean, Tensor& save_invstd);
void batch_norm_legit_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                          const Tensor* bias, Tensor& running_mean, Tensor& running_var,
                          bool training, double momentum, double eps, Tensor& out,
                          Tensor& save_mean, Tensor& save_invstd);
void batch_norm_no_stats_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                             const Tensor* bias, bool training, double momentum, double eps,
                             Tensor& out, Tensor& save_mean, Tensor& save_invstd);
void layer_norm_out(KernelRuntimeContext& ctx, const Tensor& in, IntList normalized_shape,
                    const Tensor* weight, const Tensor* bias, double eps, Tensor& out,
                    Tensor& mean, Tensor& rstd);
void group_norm_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor* weight,
                    const Tensor* bias, int64_t n, int64_t c, int64_t hxw, int64_t groups,
                    double eps, Tensor& out, Tensor& mean, Tensor& rstd);

}  // namespace ember::kernels::portable
