// col2im / im2col (nn.Fold / nn.Unfold): sliding 2-D blocks to and from columns.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// col2im.out(Tensor self, SymInt[2] output_size, int[2] kernel_size, int[2] dilation,
// int[2] padding, int[2] stride, *, Tensor(a!) out): self [N, C*kh*kw, L] (or unbatched
// [C*kh*kw, L]) -> out [N, C, H, W], every column element added into the position of its block
// (overlaps sum). L must equal the number of blocks that fit output_size.
runtime::Tensor& col2im_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& self,
                            IntList output_size, IntList kernel_size, IntList dilation,
                            IntList padding, IntList stride, runtime::Tensor& out);

// im2col.out(Tensor self, int[2] kernel_size, int[2] dilation, int[2] padding, int[2] stride,
// *, Tensor(a!) out): self [N, C, H, W] (or [C, H, W]) -> out [N, C*kh*kw, L], zero padding.
runtime::Tensor& im2col_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& self,
                            IntList kernel_size, IntList dilation, IntList padding, IntList stride,
                            runtime::Tensor& out);

}  // namespace ember::kernels::portable
