// The AVX-512 VNNI path of the dynamically quantized linear (qlinear.h, qlinear_x86.inc):
// vpdpbusd on 256-bit vectors (AVX512VL), compiled with -mavx512vnni -mavx512vl -mavx512bw
// -mavx2 -mfma (BUILD.bazel); only used after a run-time CPU check.
#include "kernels/portable/util/qlinear.h"

#if defined(__AVX512VNNI__) && defined(__AVX512VL__) && defined(__FMA__)
#include <immintrin.h>
#endif

namespace ember::kernels::portable {

#if defined(__AVX512VNNI__) && defined(__AVX512VL__) && defined(__FMA__)
namespace qlinear_vnni_impl {
#define QL_VNNI 1
#include "kernels/portable/util/qlinear_x86.inc"
#undef QL_VNNI
}  // namespace qlinear_vnni_impl

QLinearFn qlinear_avx512vnni() {
  static const bool ok = __builtin_cpu_supports("avx512vnni") &&
                         __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx2") &&
                         __builtin_cpu_supports("fma");
  return ok ? qlinear_vnni_impl::run : nullptr;
}
#else
QLinearFn qlinear_avx512vnni() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
