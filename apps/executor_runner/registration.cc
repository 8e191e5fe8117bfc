#include "apps/executor_runner/registration.h"

#include "backends/demo/runtime/demo_backend.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/fft/register_kernels.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/core/diagnostics.h"
#include "runtime/kernel/prim_ops/prim_ops.h"

namespace ember::runtime {

Error register_linked(KernelRegistry& kernels, BackendRegistry& backends) {
  EMBER_TRY(register_prim_ops(kernels));
  // Kernel libraries and backends linked into the runner, one call each:
  EMBER_TRY(ember::kernels::portable::register_kernels(kernels));
  EMBER_TRY(ember::kernels::fft::register_kernels(kernels));  // optional: links KissFFT
  EMBER_TRY(ember::backends::xnnpack::register_backend(backends));
  EMBER_TRY(ember::backends::demo::register_backend(backends));
  return Error::Ok;
}

Error set_linked_backend_threads(size_t threads) {
  return ember::backends::xnnpack::set_num_threads(threads);
}

}  // namespace ember::runtime
