// The kernel set the reference test registers besides prim ops: the portable
// kernel library (//kernels/portable).
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace ember::testing {

runtime::Error register_reference_kernels(runtime::KernelRegistry& registry);

}  // namespace ember::testing
