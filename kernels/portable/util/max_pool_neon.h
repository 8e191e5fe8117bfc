// The aarch64 NEON step of float32 max pooling over a row of in-bounds windows
// (ops/pool.cc's rows path): for t in [0, n), the candidate src[t * sx] with flat index
// i0 + t * sx replaces best[t] / best_i[t] when first, or when it is greater or the first
// NaN (v > b || (v != v && b == b): the portable loop's rule, so the same outputs and
// indices). Four columns per step; column stride 1 (plain loads) or 2 (de-interleaving
// loads). Returns false, writing nothing, for other strides and on other targets (an
// inline stub there).
#pragma once

#include <cstdint>

namespace ember::kernels::portable {

#if defined(__aarch64__) && defined(__ARM_NEON)
bool max_pool_row_neon(const float* src, int64_t sx, int64_t n, int64_t i0, bool first,
                       float* best, int64_t* best_i);
#else
inline bool max_pool_row_neon(const float*, int64_t, int64_t, int64_t, bool, float*, int64_t*) {
  return false;
}
#endif

}  // namespace ember::kernels::portable
