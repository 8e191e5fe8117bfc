// Runs one embedded program's "forward" on an embedded input and compares output 0 with an
// embedded PyTorch reference, with every byte of memory in one caller-given arena: no heap,
// no file system, no threads. Shared by the host selective-build test and the Cortex-M
// images (tests/baremetal/cortex_m_main.cc), so both run the same code.
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::baremetal {

struct ModelCheck {
  const uint8_t* pte;
  size_t pte_size;
  const uint8_t* input;  // input 0, raw float32 (aligned for float)
  size_t input_size;
  const uint8_t* expected;  // output 0, raw float32
  size_t expected_size;
  float atol;  // the fixture manifest's tolerance: |got - ref| <= atol + rtol * |ref|
  float rtol;
};

struct CheckResult {
  runtime::Error error = runtime::Error::Ok;  // load or run failure (Ok when it ran)
  size_t mismatches = 0;          // elements outside the tolerance (or size mismatch: all)
  size_t elements = 0;
  float max_abs_error = 0;
  size_t planned_bytes = 0;       // the memory plan's buffers
  size_t arena_used = 0;          // planned + method allocations + temp slice
};

// `arena` holds the planned buffers, the method allocator's allocations and a temp slice.
CheckResult run_model_check(const ModelCheck& model, runtime::KernelRegistry& kernels,
                            runtime::Span<uint8_t> arena);

}  // namespace ember::baremetal
