// The NEON path counters (util/neon_paths.h). Only aarch64 builds have the counters: on
// other targets nothing calls count_neon_path (and a 64-bit atomic would need libatomic on
// 32-bit microcontrollers).
#include "kernels/portable/util/neon_paths.h"

#if defined(__aarch64__)
#include <atomic>
#endif

namespace ember::kernels::portable {

#if defined(__aarch64__)
namespace {
std::atomic<uint64_t> g_calls[kNeonPathCount];
}  // namespace

void count_neon_path(NeonPath path) {
  g_calls[static_cast<int>(path)].fetch_add(1, std::memory_order_relaxed);
}

uint64_t neon_path_calls(NeonPath path) {
  return g_calls[static_cast<int>(path)].load(std::memory_order_relaxed);
}
#else
uint64_t neon_path_calls(NeonPath) { return 0; }
#endif

const char* neon_path_name(NeonPath path) {
  switch (path) {
    case NeonPath::VecMath: return "VecMath";
    case NeonPath::Depthwise3x3: return "Depthwise3x3";
    case NeonPath::Binary: return "Binary";
    case NeonPath::MaxPool: return "MaxPool";
  }
  return "?";
}

}  // namespace ember::kernels::portable
