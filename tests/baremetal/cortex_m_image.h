// The body of a Cortex-M model image (tests/baremetal/*_cortex_m.cc): registers the prim ops
// and the model's selected kernels, runs the model from flash with a static arena, prints the
// result over semihosting and returns the exit status (0 when every output element is within
// the fixture's tolerance of PyTorch's).
#pragma once

#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"
#include "tests/baremetal/model_check.h"

namespace ember::baremetal {

using RegisterKernels = runtime::Error (*)(runtime::KernelRegistry&);

int run_image(const char* name, const ModelCheck& model, RegisterKernels register_kernels,
              runtime::Span<uint8_t> arena);

}  // namespace ember::baremetal
