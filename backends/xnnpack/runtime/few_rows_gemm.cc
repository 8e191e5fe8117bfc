// FewRowsGemm: see few_rows_gemm.h.
#include "backends/xnnpack/runtime/few_rows_gemm.h"

#include "backends/xnnpack/runtime/avx512_region.h"

#include <cpuinfo.h>

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ember::backends::xnnpack {
namespace {

constexpr uint32_t kCols = 32;  // columns per packed panel

// The vectorized form's order per output: bias, then k = 0, 1, ... fused multiply-adds.
void gemm_portable(uint32_t m, uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed,
                   const float* bias, float out_min, float out_max, float* y, size_t y_stride) {
  for (uint32_t j0 = 0; j0 < n; j0 += kCols) {
    const float* panel = packed + size_t{j0 / kCols} * k * kCols;
    const uint32_t cols = std::min(kCols, n - j0);
    for (uint32_t i = 0; i < m; ++i) {
      for (uint32_t j = 0; j < cols; ++j) {
        float acc = bias != nullptr ? bias[j0 + j] : 0.f;
        for (uint32_t kk = 0; kk < k; ++kk) acc = std::fma(x[i * x_stride + kk], panel[size_t{kk} * kCols + j], acc);
        y[i * y_stride + j0 + j] = std::min(std::max(acc, out_min), out_max);
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)

bool avx512_available() { return cpuinfo_initialize() && cpuinfo_has_x86_avx512f(); }

EMBER_AVX512F_BEGIN

// All R rows against one 32-column panel: 2 R accumulators, two filter vectors per k.
template <uint32_t R>
void panel_avx512(uint32_t cols, uint32_t k, const float* x, size_t x_stride, const float* panel, const float* bias,
                  uint32_t j0, float out_min, float out_max, float* y, size_t y_stride) {
  const __mmask16 m0 = cols >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << cols) - 1);
  const __mmask16 m1 = cols >= 32 ? __mmask16(0xFFFF) : cols > 16 ? __mmask16((1u << (cols - 16)) - 1) : 0;
  const __m512 b0 = bias != nullptr ? _mm512_maskz_loadu_ps(m0, bias + j0) : _mm512_setzero_ps();
  const __m512 b1 = bias != nullptr ? _mm512_maskz_loadu_ps(m1, bias + j0 + 16) : _mm512_setzero_ps();
  // Unrolled so that the accumulators stay in registers (-O2 keeps arrays on the stack).
  __m512 a0[R], a1[R];
#pragma GCC unroll 12
  for (uint32_t r = 0; r < R; ++r) {
    a0[r] = b0;
    a1[r] = b1;
  }
  for (uint32_t kk = 0; kk < k; ++kk) {
    const __m512 w0 = _mm512_loadu_ps(panel + size_t{kk} * kCols);
    const __m512 w1 = _mm512_loadu_ps(panel + size_t{kk} * kCols + 16);
#pragma GCC unroll 12
    for (uint32_t r = 0; r < R; ++r) {
      const __m512 xr = _mm512_set1_ps(x[r * x_stride + kk]);
      a0[r] = _mm512_fmadd_ps(xr, w0, a0[r]);
      a1[r] = _mm512_fmadd_ps(xr, w1, a1[r]);
    }
  }
  // Clamp by vector-extension selects (GCC 12's _mm512_min_ps / _mm512_max_ps trip its own
  // -Wmaybe-uninitialized under -Werror).
  const __m512 lo = _mm512_set1_ps(out_min), hi = _mm512_set1_ps(out_max);
  for (uint32_t r = 0; r < R; ++r) {
    __m512 v0 = a0[r] < lo ? lo : a0[r], v1 = a1[r] < lo ? lo : a1[r];
    v0 = v0 > hi ? hi : v0;
    v1 = v1 > hi ? hi : v1;
    _mm512_mask_storeu_ps(y + r * y_stride + j0, m0, v0);
    _mm512_mask_storeu_ps(y + r * y_stride + j0 + 16, m1, v1);
  }
}

template <uint32_t R>
void gemm_rows(uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed, const float* bias,
               float out_min, float out_max, float* y, size_t y_stride) {
  for (uint32_t j0 = 0; j0 < n; j0 += kCols) {
    panel_avx512<R>(std::min(kCols, n - j0), k, x, x_stride, packed + size_t{j0 / kCols} * k * kCols, bias, j0,
                    out_min, out_max, y, y_stride);
  }
}

void gemm_avx512(uint32_t m, uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed,
                 const float* bias, float out_min, float out_max, float* y, size_t y_stride) {
  using Fn = void (*)(uint32_t, uint32_t, const float*, size_t, const float*, const float*, float, float, float*,
                      size_t);
  static constexpr Fn kByRows[kFewRowsMax] = {
      gemm_rows<1>, gemm_rows<2>, gemm_rows<3>, gemm_rows<4>,  gemm_rows<5>,  gemm_rows<6>,
      gemm_rows<7>, gemm_rows<8>, gemm_rows<9>, gemm_rows<10>, gemm_rows<11>, gemm_rows<12>,
  };
  kByRows[m - 1](n, k, x, x_stride, packed, bias, out_min, out_max, y, y_stride);
}

EMBER_AVX512F_END

#else

bool avx512_available() { return false; }

void gemm_avx512(uint32_t m, uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed,
                 const float* bias, float out_min, float out_max, float* y, size_t y_stride) {
  gemm_portable(m, n, k, x, x_stride, packed, bias, out_min, out_max, y, y_stride);
}

#endif

}  // namespace

size_t few_rows_packed_floats(uint32_t n, uint32_t k) {
  return size_t{(n + kCols - 1) / kCols} * kCols * k;
}

void pack_few_rows_filter(const float* w, uint32_t n, uint32_t k, float* packed) {
  const uint32_t panels = (n + kCols - 1) / kCols;
  for (uint32_t p = 0; p < panels; ++p) {
    for (uint32_t kk = 0; kk < k; ++kk) {
      for (uint32_t c = 0; c < kCols; ++c) {
        const uint32_t j = p * kCols + c;
        packed[(size_t{p} * k + kk) * kCols + c] = j < n ? w[size_t{j} * k + kk] : 0.f;
      }
    }
  }
}

bool few_rows_vectorized() { return avx512_available(); }

void few_rows_gemm(uint32_t m, uint32_t n, uint32_t k, const float* x, size_t x_stride, const float* packed,
                   const float* bias, float out_min, float out_max, float* y, size_t y_stride, bool portable) {
  if (m == 0 || m > kFewRowsMax) return;
  if (!portable && avx512_available()) {
    gemm_avx512(m, n, k, x, x_stride, packed, bias, out_min, out_max, y, y_stride);
  } else {
    gemm_portable(m, n, k, x, x_stride, packed, bias, out_min, out_max, y, y_stride);
  }
}

}  // namespace ember::backends::xnnpack
