// What executor_runner links: the kernel libraries and backends it registers
// at start-up. Adding a backend is one line in registration.cc.
#pragma once

#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// Registers prim ops and every linked kernel library into `kernels`, and
// every linked backend into `backends`.
Error register_linked(KernelRegistry& kernels, BackendRegistry& backends);

// Tells every linked backend that runs its own threads to use `threads` (>= 1), as the
// portable kernels do through the runner's thread pool (--cpu_threads).
Error set_linked_backend_threads(size_t threads);

}  // namespace ember::runtime
