// The cnn fixture on bare-metal Cortex-M3: .pte, input and PyTorch's output in flash, only the
// kernels the program calls, compiled for the dtypes it uses, every byte of memory static
// (tests/baremetal/BUILD.bazel).
#include "tests/baremetal/cortex_m_image.h"
#include "tests/baremetal/cnn_dtype_kernels.h"
#include "tests/baremetal/cnn_expected.h"
#include "tests/baremetal/cnn_input.h"
#include "tests/baremetal/cnn_program.h"

namespace {
alignas(16) uint8_t g_arena[EMBER_ARENA_BYTES];
}  // namespace

int main() {
  const ember::baremetal::ModelCheck model{
      ember_program_cnn_program, ember_program_cnn_program_size, cnn_input, cnn_input_size,
      cnn_expected, cnn_expected_size, 1e-5f, 1e-4f};  // the fixture manifest's tolerance
  return ember::baremetal::run_image("cnn", model,
                                     &ember_selected::cnn_dtype_kernels::register_kernels,
                                     {g_arena, sizeof(g_arena)});
}
