// vec_math(): the one place that picks the vector-math build for this CPU (AVX2 when
// present, the NEON build on aarch64, else the 16-byte build, which is SSE2 on x86-64).
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {

namespace vec_math_portable_impl {
constexpr int kVecBytes = 16;
constexpr const char* kIsaName = "portable";
#include "kernels/portable/util/vec_math_impl.inc"
}  // namespace vec_math_portable_impl

const VecMath& vec_math_portable() { return vec_math_portable_impl::kTable; }

const VecMath& vec_math() {
  static const VecMath* const best = [] {
    const VecMath* avx2 = vec_math_avx2();
    if (avx2 != nullptr) return avx2;
    const VecMath* neon = vec_math_neon();
    return neon != nullptr ? neon : &vec_math_portable();
  }();
  return *best;
}

float exp_f32(float x) {
  float y;
  vec_math_portable_impl::exp_rows(&x, &y, 1);
  return y;
}

}  // namespace ember::kernels::portable
