// executor_runner as a function: the //apps/executor_runner binary is
//   int main(int argc, char** argv) { return ember::runtime::executor_runner_main(argc, argv); }
// and a runner that also links an app's own kernels (custom operators) passes their
// registration, called after the prim ops, portable kernels and backends are registered:
//   int main(int argc, char** argv) {
//     return ember::runtime::executor_runner_main(argc, argv, &mylib::register_kernels);
//   }
// Same flags, output and exit codes either way (executor_runner.cc).
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

// Registers extra kernels into the runner's registry; an error stops the runner (exit 1).
using KernelRegistration = Error (*)(KernelRegistry& registry);

int executor_runner_main(int argc, char** argv, KernelRegistration extra_kernels = nullptr);

}  // namespace ember::runtime
