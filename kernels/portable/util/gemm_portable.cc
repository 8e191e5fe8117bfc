// The portable GEMM: the blocked body of gemm_impl.inc with a 4 x 8 micro
// tile of 16-byte vectors (fits the 16 registers of baseline x86-64 / NEON).
#include "kernels/portable/util/gemm.h"

namespace ember::kernels::portable {
namespace gemm_portable_impl {
constexpr int kVecBytes = 16;
constexpr int kMr = 4;
constexpr int kNr = 8;
#include "kernels/portable/util/gemm_impl.inc"
}  // namespace gemm_portable_impl

void sgemm_portable(const GemmArgs& args, runtime::ThreadPool* pool) {
  gemm_portable_impl::gemm_entry(args, pool);
}

}  // namespace ember::kernels::portable
