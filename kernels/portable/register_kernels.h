// The portable kernel library's one entry point: registers every portable
// kernel (boxed, under its .pte operator name, e.g. "aten::add.out") into a
// registry. Nothing registers itself; a program calls this explicitly.
#pragma once

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::portable {

// Registers all portable kernels. Errors as KernelRegistry::register_kernels
// (nothing is registered on error, e.g. a duplicate name or a full registry).
runtime::Error register_kernels(runtime::KernelRegistry& registry);

// The table register_kernels uses (names and boxed functions).
runtime::Span<const runtime::Kernel> portable_kernels();

}  // namespace ember::kernels::portable
