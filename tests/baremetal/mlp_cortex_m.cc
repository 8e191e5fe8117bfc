// The mlp fixture on bare-metal Cortex-M3: .pte, input and PyTorch's output in flash, only the
// kernels the program calls, compiled for the dtypes it uses, every byte of memory static
// (tests/baremetal/BUILD.bazel).
#include "tests/baremetal/cortex_m_image.h"
#include "tests/baremetal/mlp_dtype_kernels.h"
#include "tests/baremetal/mlp_expected.h"
#include "tests/baremetal/mlp_input.h"
#include "tests/baremetal/mlp_program.h"

namespace {
alignas(16) uint8_t g_arena[EMBER_ARENA_BYTES];
}  // namespace

int main() {
  const ember::baremetal::ModelCheck model{
      ember_program_mlp_program, ember_program_mlp_program_size, mlp_input, mlp_input_size,
      mlp_expected, mlp_expected_size, 1e-5f, 1e-4f};  // the fixture manifest's tolerance
  return ember::baremetal::run_image("mlp", model,
                                     &ember_selected::mlp_dtype_kernels::register_kernels,
                                     {g_arena, sizeof(g_arena)});
}
