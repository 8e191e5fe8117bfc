#include "tests/runtime/reference_kernels.h"

#include "kernels/portable/register_kernels.h"

namespace ember::testing {

runtime::Error register_reference_kernels(runtime::KernelRegistry& registry) {
  return kernels::portable::register_kernels(registry);
}

}  // namespace ember::testing
