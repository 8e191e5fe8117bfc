// The AVX2+FMA GEMM: the same blocked body compiled with -mavx2 -mfma (see
// BUILD.bazel), with a 6 x 16 micro tile of 32-byte vectors (12 accumulators).
// Only called after a run-time CPU check; on other targets it reports false.
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

#if defined(__AVX2__) && defined(__FMA__)
namespace gemm_avx2_impl {
constexpr int kVecBytes = 32;
constexpr int kMr = 6;
constexpr int kNr = 16;
#include "kernels/portable/util/gemm_impl.inc"
}  // namespace gemm_avx2_impl

bool sgemm_avx2(const GemmArgs& args, runtime::ThreadPool* pool) {
  static const bool supported = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!supported) return false;
  gemm_avx2_impl::gemm_entry(args, pool);
  return true;
}
#else
bool sgemm_avx2(const GemmArgs&, runtime::ThreadPool*) { return false; }
#endif

}  // namespace ember::kernels::portable
