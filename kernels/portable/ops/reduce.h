// Reduction kernels (ATen out variants): sum, mean, prod, amax, amin, argmax,
// argmin, max/min (dim and whole-tensor), any, var, var_mean, cumsum, topk.
// Floating sums accumulate in double; integral sums in wrapping int64.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Scalar;
using runtime::ScalarType;
using runtime::Tensor;
using OptDims = std::optional<IntList>;
using OptDtype = std::optional<ScalarType>;

Tensor& sum_intlist_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                        OptDtype dtype, Tensor& out);
Tensor& mean_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                 OptDtype dtype, Tensor& out);
Tensor& mean_dtype_out(KernelRuntimeContext& ctx, const Tensor& in, OptDtype dtype, Tensor& out);
Tensor& prod_out(KernelRuntimeContext& ctx, const Tensor& in, OptDtype dtype, Tensor& out);
Tensor& prod_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                     OptDtype dtype, Tensor& out);
Tensor& amax_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, bool keepdim,
                 Tensor& out);
Tensor& amin_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, bool keepdim,
                 Tensor& out);
Tensor& argmax_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<int64_t> dim,
                   bool keepdim, Tensor& out);
Tensor& argmin_out(KernelRuntimeContext& ctx, const Tensor& in, std::optional<int64_t> dim,
                   bool keepdim, Tensor& out);
void max_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices);
void min_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                 Tensor& values, Tensor& indices);
Tensor& max_unary_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& min_unary_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& any_all_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& any_dims_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool keepdim,
                     Tensor& out);
Tensor& any_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, bool keepdim,
                Tensor& out);
Tensor& var_correction_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims,
                           std::optional<Scalar> correction, bool keepdim, Tensor& out);
Tensor& var_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims, bool unbiased,
                bool keepdim, Tensor& out);
void var_mean_correction_out(KernelRuntimeContext& ctx, const Tensor& in, OptDims dims,
                             std::optional<Scalar> correction, bool keepdim, Tensor& var,
                             Tensor& mean);
Tensor& cumsum_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, OptDtype dtype,
                   Tensor& out);
void topk_values(KernelRuntimeContext& ctx, const Tensor& in, int64_t k, int64_t dim,
                 bool largest, bool sorted, Tensor& values, Tensor& indices);

}  // namespace ember::kernels::portable
