// The runtime's "prim" kernels that exported programs call besides ATen ops
// (pte-format.md 4.7): symbolic-int arithmetic and comparisons on Int, Double
// and Bool values (executorch_prim::add.Scalar, ...), aten::sym_size.int,
// aten::sym_numel, aten::_local_scalar_dense, and the tensor ops
// executorch_prim::et_view.default and executorch_prim::et_copy_index.tensor.
// The return slot is the last argument; a scalar result keeps that slot's kind
// (an Int slot receives an int), so values never change kind at run time.
#pragma once

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// All prim kernels, for listing.
Span<const Kernel> prim_kernels();

// Registers all prim kernels; errors as KernelRegistry::register_kernels.
Error register_prim_ops(KernelRegistry& registry);

}  // namespace ember::runtime
