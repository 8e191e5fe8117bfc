// Resampling kernels added for the training IR of issue #13 (ATen out variants):
//   _upsample_bilinear2d_aa.out: antialiased bilinear resize (a triangle filter whose support
//     widens with the downscale factor, weights normalised per output pixel; separable, the
//     same filter as PIL's and torchvision's antialias=True);
//   grid_sampler_2d.out: samples a 4-D input at the (x, y) positions of a [N, OH, OW, 2] grid in
//     [-1, 1]; bilinear (0) or nearest (1), padding zeros (0), border (1) or reflection (2),
//     align_corners either way. Bicubic (2) is NotSupported.
// Float and double inputs (half types compute in float); any dim order.
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;

Tensor& upsample_bilinear2d_aa_out(KernelRuntimeContext& ctx, const Tensor& in, IntList output_size,
                                   bool align_corners, std::optional<double> scales_h,
                                   std::optional<double> scales_w, Tensor& out);
Tensor& grid_sampler_2d_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& grid,
                            int64_t interpolation_mode, int64_t padding_mode, bool align_corners,
                            Tensor& out);

}  // namespace ember::kernels::portable
