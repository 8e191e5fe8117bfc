// Per-path call counters of the aarch64 NEON kernel paths, so a test can prove that the
// kernels ran through NEON and not through the portable fallback (docs/decisions.md 115).
// Each path adds one per kernel call that took it (a relaxed atomic add per call, not per
// element); other targets have no NEON paths and always read 0.
#pragma once

#include <cstdint>

namespace ember::kernels::portable {

enum class NeonPath : int {
  VecMath,       // util/vec_math_neon.cc: exp, softmax rows, layer norm rows, activations
  Depthwise3x3,  // ops/conv_depthwise_neon.cc: 3x3 depthwise, planes >= 8 outputs wide
  Binary,        // util/binary_neon.cc: float add/sub/mul/div with broadcast
  MaxPool,       // util/pool_neon.cc: float max pool rows (column stride 1 or 2)
};
constexpr int kNeonPathCount = 4;

// Calls that took `path` since the process started (0 on targets without NEON paths).
uint64_t neon_path_calls(NeonPath path);
// The name of `path` ("VecMath", ...), for test messages.
const char* neon_path_name(NeonPath path);

#if defined(__aarch64__)
void count_neon_path(NeonPath path);
#endif

}  // namespace ember::kernels::portable
