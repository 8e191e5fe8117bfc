// The AVX-512F GEMM: the same blocked body compiled with -mavx512f -mfma (see
// BUILD.bazel), with a 6 x 32 micro tile of 64-byte vectors (12 accumulators),
// or for narrow C (n <= 16 columns, or 16 more than a multiple of 32 below 64:
// late CNN layers, small planes) an 8 x 16 tile (8 accumulators), which wastes
// half as many lanes there. Each C element is the same sum either way.
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
namespace gemm_avx512_narrow_impl {
constexpr int kVecBytes = 64;
constexpr int kMr = 8;
constexpr int kNr = 16;
#include "kernels/portable/util/gemm_impl.inc"
}  // namespace gemm_avx512_narrow_impl

bool sgemm_avx512(const GemmArgs& args, runtime::ThreadPool* pool) {
  static const bool supported = __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("fma");
  if (!supported) return false;
  const bool narrow = args.n < 64 && (args.n + 15) / 16 * 16 < (args.n + 31) / 32 * 32;
  if (narrow) {
    gemm_avx512_narrow_impl::gemm_entry(args, pool);
  } else {
    gemm_avx512_impl::gemm_entry(args, pool);
  }
  return true;
}
#else
bool sgemm_avx512(const GemmArgs&, runtime::ThreadPool*) { return false; }
#endif

}  // namespace ember::kernels::portable
