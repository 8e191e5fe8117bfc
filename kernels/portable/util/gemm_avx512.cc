// The AVX-512F GEMM: the same blocked body compiled with -mavx512f -mfma (see
// BUILD.bazel), with an 8 x 16 micro tile of 64-byte vectors (8 accumulators,
// one B vector and 8 A broadcasts per step). A 6 x 32 tile measured the same on
// large C but wastes up to half its lanes on CNN layers with few output
// positions (4x4 or 3x3 planes) or few output channels (8), where 8 x 16 ran
// 1.1-2x faster (benchmarks/conv_peer_benchmark, docs/decisions.md 89).
// Only called after a run-time CPU check; on other targets it reports false.
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

#if defined(__AVX512F__) && defined(__FMA__)
namespace gemm_avx512_impl {
constexpr int kVecBytes = 64;
constexpr int kMr = 8;
constexpr int kNr = 16;
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
