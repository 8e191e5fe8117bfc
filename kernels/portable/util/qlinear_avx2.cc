// The AVX2 path of the dynamically quantized linear (qlinear.h, qlinear_x86.inc), compiled with
// -mavx2 -mfma (BUILD.bazel); only used after a run-time CPU check.
#include "kernels/portable/util/qlinear.h"

#if defined(__AVX2__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace ember::kernels::portable {

#if defined(__AVX2__) && defined(__FMA__)
namespace qlinear_avx2_impl {
#define QL_VNNI 0
#include "kernels/portable/util/qlinear_x86.inc"
#undef QL_VNNI
}  // namespace qlinear_avx2_impl

QLinearFn qlinear_avx2() {
  static const bool ok = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  return ok ? qlinear_avx2_impl::run : nullptr;
}
#else
QLinearFn qlinear_avx2() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
