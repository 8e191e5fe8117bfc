// The aarch64 NEON GEMM: the blocked body of gemm_impl.inc with a 6 x 8 micro tile
// of 16-byte vectors (12 accumulators; GCC 12 keeps a 6 x 16 tile's 24 in NEON's 32
// registers only with spills in the inner loop) and fused multiply-adds
// (fmla; compiled with -ffp-contract=fast, see BUILD.bazel). Every aarch64 CPU has
// NEON (Advanced SIMD is part of the base ISA), so no run-time check is needed; on
// other targets it reports false. sgemm repairs outputs that overflowed (util/gemm.cc).
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {

#if defined(__aarch64__) && defined(__ARM_NEON)
namespace gemm_neon_impl {
constexpr int kVecBytes = 16;
constexpr int kMr = 6;
constexpr int kNr = 8;
#include "kernels/portable/util/gemm_impl.inc"
}  // namespace gemm_neon_impl

bool sgemm_neon(const GemmArgs& args, runtime::ThreadPool* pool) {
  gemm_neon_impl::gemm_entry(args, pool);
  return true;
}
#else
bool sgemm_neon(const GemmArgs&, runtime::ThreadPool*) { return false; }
#endif

}  // namespace ember::kernels::portable
