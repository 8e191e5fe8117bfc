// The MLP with only its selected kernels, statically linked (selective_symbols_test.sh checks
// its symbol table). Exit status 0 when the output matches PyTorch's.
#include <cstdio>

#include "runtime/kernel/prim_ops/prim_ops.h"
#include "tests/baremetal/mlp_expected.h"
#include "tests/baremetal/mlp_input.h"
#include "tests/baremetal/mlp_kernels.h"
#include "tests/baremetal/mlp_program.h"
#include "tests/baremetal/model_check.h"

namespace {
alignas(16) uint8_t g_arena[64 * 1024];
}  // namespace

int main() {
  using namespace ember;
  runtime::FixedKernelRegistry<64> registry;
  if (runtime::register_prim_ops(registry) != runtime::Error::Ok) return 2;
  if (ember_selected::mlp_kernels::register_kernels(registry) != runtime::Error::Ok) return 2;
  const baremetal::ModelCheck mlp{ember_program_mlp_program, ember_program_mlp_program_size,
                                  mlp_input, mlp_input_size, mlp_expected, mlp_expected_size,
                                  1e-5f, 1e-4f};
  const baremetal::CheckResult r = baremetal::run_model_check(mlp, registry, {g_arena, sizeof(g_arena)});
  std::printf("mlp: %s, %zu of %zu elements off, %zu kernels registered\n",
              runtime::error_name(r.error), r.mismatches, r.elements, registry.size());
  return r.error == runtime::Error::Ok && r.mismatches == 0 ? 0 : 1;
}
