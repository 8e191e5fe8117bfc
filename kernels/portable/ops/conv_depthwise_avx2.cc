// The AVX2 build of the depthwise fast paths (ops/conv_depthwise_impl.inc; eight lanes,
// compiled with -mavx2 and without FMA, see BUILD.bazel). Returned only after a run-time
// CPU check; other targets report nullptr.
#include "kernels/portable/ops/conv_geometry.h"

namespace ember::kernels::portable {

#if defined(__AVX2__)
namespace depthwise_avx2_impl {
constexpr int kVecBytes = 32;
#include "kernels/portable/ops/conv_depthwise_impl.inc"
}  // namespace depthwise_avx2_impl

DepthwiseFastFn depthwise_fast_avx2() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported ? &depthwise_avx2_impl::depthwise_fast : nullptr;
}
#else
DepthwiseFastFn depthwise_fast_avx2() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
