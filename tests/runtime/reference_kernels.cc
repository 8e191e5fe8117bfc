#include "tests/runtime/reference_kernels.h"

#include "tests/runtime/test_kernels.h"

namespace ember::testing {

runtime::Error register_reference_kernels(runtime::KernelRegistry& registry) {
  return register_test_kernels(registry);
}

}  // namespace ember::testing
