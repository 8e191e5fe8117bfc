// The AVX-512F GEMM: the same blocked body compiled with -mavx512f -mfma (see
// BUILD.bazel), with a 6 x 32 micro tile of 64-byte vectors (12 accumulators).
// Only called after a run-time CPU check; on other targets it reports false.
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

#if defined(__AVX512F__) && defined(__FMA__)
namespace gemm_avx512_impl {
constexpr int kVecBytes = 64;
constexpr int kMr = 6;
constexpr int kNr = 32;
#include "kernels/portable/util/gemm_impl.inc"
}  // namespace gemm_avx512_impl

bool sgemm_avx512(const GemmArgs& args, runtime::ThreadPool* pool) {
  static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  if (!supported) return false;
  gemm_avx512_impl::gemm_entry(args, pool);
  return true;
}
#else
bool sgemm_avx512(const GemmArgs&, runtime::ThreadPool*) { return false; }
#endif

}  // namespace ember::kernels::portable
