// Prim kernels that read or reshape tensors: aten::sym_size.int,
// aten::sym_numel, aten::_local_scalar_dense, executorch_prim::et_view.default
// (out aliases self's data with a new shape) and
// executorch_prim::et_copy_index.tensor (copy_to[index] = copy_from; a dynamic
// copy_to's first dimension becomes index + 1 within its capacity, a static one may only
// grow). Registered by prim_ops.cc.
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

void sym_size(KernelRuntimeContext& ctx, Span<EValue*> args);
void sym_numel(KernelRuntimeContext& ctx, Span<EValue*> args);
void local_scalar_dense(KernelRuntimeContext& ctx, Span<EValue*> args);
void et_view(KernelRuntimeContext& ctx, Span<EValue*> args);
void et_copy_index(KernelRuntimeContext& ctx, Span<EValue*> args);

}  // namespace ember::runtime
