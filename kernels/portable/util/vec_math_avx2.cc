// The AVX2 build of util/vec_math_impl.inc (eight lanes; compiled with -mavx2 and without
// FMA, see BUILD.bazel). Only returned after a run-time CPU check; other targets report
// nullptr.
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {

#if defined(__AVX2__)
namespace vec_math_avx2_impl {
constexpr int kVecBytes = 32;
constexpr const char* kIsaName = "avx2";
#include "kernels/portable/util/vec_math_impl.inc"
}  // namespace vec_math_avx2_impl

const VecMath* vec_math_avx2() {
  static const bool supported = __builtin_cpu_supports("avx2");
  return supported ? &vec_math_avx2_impl::kTable : nullptr;
}
#else
const VecMath* vec_math_avx2() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
