// The aarch64 NEON build of util/vec_math_impl.inc: 16-byte vectors, one NEON register
// each (GCC 12 lowers the 32-byte generic vectors of the AVX2 build to scalar code for
// compares and selects on aarch64, so the wider build is no option there). The sums
// already keep two independent vectors per step (8-float chunks). Compiled without fused
// multiply-adds like every vec_math build (PORTABLE_COPTS), so it gives the portable and
// AVX2 builds' bits (vec_math_test). Every table entry counts its calls
// (NeonPath::VecMath), which is how a test tells that softmax, layer norm and the
// activations ran here. Other targets report nullptr.
#include "kernels/portable/util/vec_math.h"

#include "kernels/portable/util/neon_paths.h"

namespace ember::kernels::portable {

#if defined(__aarch64__) && defined(__ARM_NEON)
namespace vec_math_neon_impl {
constexpr int kVecBytes = 16;
constexpr const char* kIsaName = "neon";
#include "kernels/portable/util/vec_math_impl.inc"
}  // namespace vec_math_neon_impl

namespace {

template <typename Sig, Sig* F>
struct Counted;
template <typename R, typename... A, R (*F)(A...)>
struct Counted<R(A...), F> {
  static R call(A... args) {
    count_neon_path(NeonPath::VecMath);
    return F(args...);
  }
};
#define EMBER_NEON_COUNTED(f) \
  &Counted<decltype(vec_math_neon_impl::f), &vec_math_neon_impl::f>::call

constexpr VecMath kNeonTable = {
    "neon",
    EMBER_NEON_COUNTED(exp_rows),
    EMBER_NEON_COUNTED(exp_shift_sum_rows),
    EMBER_NEON_COUNTED(sigmoid_rows),
    EMBER_NEON_COUNTED(silu_rows),
    EMBER_NEON_COUNTED(gelu_erf_rows),
    EMBER_NEON_COUNTED(hardswish_rows),
    EMBER_NEON_COUNTED(hardsigmoid_rows),
    EMBER_NEON_COUNTED(scale_rows),
    EMBER_NEON_COUNTED(moments_rows),
    EMBER_NEON_COUNTED(normalize_rows),
};
#undef EMBER_NEON_COUNTED

}  // namespace

const VecMath* vec_math_neon() { return &kNeonTable; }
#else
const VecMath* vec_math_neon() { return nullptr; }
#endif

}  // namespace ember::kernels::portable
