// Resampling kernels (ATen out variants): upsample_nearest2d.vec and
// upsample_bilinear2d.vec, on 4-D inputs in any dim order; source positions
// are computed in the input's compute type as ATen's CPU kernels do.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;
using DoubleList = runtime::Span<const double>;

Tensor& upsample_nearest2d_vec_out(KernelRuntimeContext& ctx, const Tensor& in,
                                   std::optional<IntList> output_size,
                                   std::optional<DoubleList> scale_factors, Tensor& out);
Tensor& upsample_bilinear2d_vec_out(KernelRuntimeContext& ctx, const Tensor& in,
                                    std::optional<IntList> output_size, bool align_corners,
                                    std::optional<DoubleList> scale_factors, Tensor& out);

}  // namespace ember::kernels::portable
