// What executor_runner links: the kernel libraries and backends it registers
// at start-up. Adding a backend is one line in registration.cc.
#pragma once

#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// Registers prim ops and every linked kernel library into `kernels`, and
// every linked backend into `backends`.
Error register_linked(KernelRegistry& kernels, BackendRegistry& backends);

}  // namespace ember::runtime
