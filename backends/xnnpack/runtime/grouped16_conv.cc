// Grouped16Conv: see grouped16_conv.h.
#include "backends/xnnpack/runtime/grouped16_conv.h"

#include "backends/xnnpack/runtime/avx512_region.h"

#include <cpuinfo.h>

#include <algorithm>
#include <cmath>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

namespace ember::backends::xnnpack {
namespace {

constexpr uint32_t kWidth = 16;  // channels per group, in and out
const float kZeros[kWidth] = {};  // the input of a padding tap
constexpr uint32_t kMaxTaps = 25;  // the vectorized form's kernels: up to 5x5

// The 16 input channels of group `g` at output pixel `p` and tap (ky, kx): a pointer into the
// input, or kZeros when the tap falls in the padding.
inline const float* tap_input(const Grouped16ConvShape& s, const float* image, uint32_t p, uint32_t ky,
                              uint32_t kx, uint32_t g) {
  const uint32_t oy = p / s.out_w, ox = p % s.out_w;
  const int64_t iy = int64_t{oy} * s.stride_h + ky - s.pad_top;
  const int64_t ix = int64_t{ox} * s.stride_w + kx - s.pad_left;
  if (iy < 0 || ix < 0 || iy >= s.in_h || ix >= s.in_w) return kZeros;
  return image + (size_t(iy) * s.in_w + size_t(ix)) * s.groups * kWidth + size_t{g} * kWidth;
}

// One output pixel of one group, in the vectorized form's order: bias, then every tap and input
// channel, fused multiply-adds.
void pixel_portable(const Grouped16ConvShape& s, const float* image, const float* wg, const float* bias,
                    uint32_t p, uint32_t g, float out_min, float out_max, float* out) {
  float acc[kWidth];
  for (uint32_t o = 0; o < kWidth; ++o) acc[o] = bias != nullptr ? bias[g * kWidth + o] : 0.f;
  for (uint32_t ky = 0; ky < s.kernel_h; ++ky) {
    for (uint32_t kx = 0; kx < s.kernel_w; ++kx) {
      const float* in = tap_input(s, image, p, ky, kx, g);
      const float* w = wg + size_t{ky * s.kernel_w + kx} * kWidth * kWidth;
      for (uint32_t c = 0; c < kWidth; ++c) {
        for (uint32_t o = 0; o < kWidth; ++o) acc[o] = std::fma(in[c], w[c * kWidth + o], acc[o]);
      }
    }
  }
  for (uint32_t o = 0; o < kWidth; ++o) out[o] = std::min(std::max(acc[o], out_min), out_max);
}

void conv_portable(const Grouped16ConvShape& s, const float* input, const float* packed, const float* bias,
                   float out_min, float out_max, float* output) {
  const size_t channels = size_t{s.groups} * kWidth;
  const uint32_t pixels = s.out_h * s.out_w;
  const size_t taps = size_t{s.kernel_h} * s.kernel_w;
  for (uint32_t n = 0; n < s.batch; ++n) {
    const float* image = input + size_t{n} * s.in_h * s.in_w * channels;
    float* out_image = output + size_t{n} * pixels * channels;
    for (uint32_t g = 0; g < s.groups; ++g) {
      const float* wg = packed + g * taps * kWidth * kWidth;
      for (uint32_t p = 0; p < pixels; ++p) {
        pixel_portable(s, image, wg, bias, p, g, out_min, out_max, out_image + p * channels + g * kWidth);
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)

bool avx512_available() { return cpuinfo_initialize() && cpuinfo_has_x86_avx512f(); }

EMBER_AVX512F_BEGIN

// R output pixels of every group: the pixels' input addresses per tap are found once (no
// division in the group loop), then per group R accumulators, one filter vector per tap and
// input channel, the input channel broadcast per pixel. Pixels past `count` and padding taps
// read zeros; pixels past `count` are not stored. Groups innermost: a block re-reads the
// filter, from L2 when it does not fit L1, and every filter byte is its own (no padding).
template <uint32_t R>
void block_avx512(const Grouped16ConvShape& s, const float* image, const float* packed, const float* bias,
                  uint32_t p0, uint32_t count, float out_min, float out_max, float* out_image) {
  const size_t channels = size_t{s.groups} * kWidth;
  const uint32_t taps = s.kernel_h * s.kernel_w;
  const float* base[kMaxTaps][R];  // channel 0 of each pixel's input at each tap, or null
  for (uint32_t r = 0; r < R; ++r) {
    const uint32_t p = p0 + r;
    const uint32_t oy = p / s.out_w, ox = p % s.out_w;
    for (uint32_t ky = 0; ky < s.kernel_h; ++ky) {
      for (uint32_t kx = 0; kx < s.kernel_w; ++kx) {
        const int64_t iy = int64_t{oy} * s.stride_h + ky - s.pad_top;
        const int64_t ix = int64_t{ox} * s.stride_w + kx - s.pad_left;
        const bool inside = r < count && iy >= 0 && ix >= 0 && iy < s.in_h && ix < s.in_w;
        base[ky * s.kernel_w + kx][r] = inside ? image + (size_t(iy) * s.in_w + size_t(ix)) * channels : nullptr;
      }
    }
  }
  const __m512 lo = _mm512_set1_ps(out_min), hi = _mm512_set1_ps(out_max);
  for (uint32_t g = 0; g < s.groups; ++g) {
    const float* wg = packed + size_t{g} * taps * kWidth * kWidth;
    const __m512 b = bias != nullptr ? _mm512_loadu_ps(bias + g * kWidth) : _mm512_setzero_ps();
    // The pixel loops are unrolled so that the accumulators stay in registers (-O2 does not
    // unroll them by itself and keeps acc[] on the stack).
    __m512 acc[R];
#pragma GCC unroll 8
    for (uint32_t r = 0; r < R; ++r) acc[r] = b;
    for (uint32_t t = 0; t < taps; ++t) {
      const float* in[R];
#pragma GCC unroll 8
      for (uint32_t r = 0; r < R; ++r) in[r] = base[t][r] != nullptr ? base[t][r] + g * kWidth : kZeros;
      const float* w = wg + size_t{t} * kWidth * kWidth;
#pragma GCC unroll 4
      for (uint32_t c = 0; c < kWidth; ++c) {
        const __m512 wc = _mm512_loadu_ps(w + c * kWidth);
#pragma GCC unroll 8
        for (uint32_t r = 0; r < R; ++r) acc[r] = _mm512_fmadd_ps(_mm512_set1_ps(in[r][c]), wc, acc[r]);
      }
    }
    // The clamp as vector-extension selects: GCC 12's _mm512_min_ps / _mm512_max_ps trip its
    // own -Wmaybe-uninitialized (an undefined passthrough operand) under -Werror.
    for (uint32_t r = 0; r < R && r < count; ++r) {
      __m512 y = acc[r] < lo ? lo : acc[r];
      y = y > hi ? hi : y;
      _mm512_storeu_ps(out_image + (p0 + r) * channels + g * kWidth, y);
    }
  }
}

void conv_avx512(const Grouped16ConvShape& s, const float* input, const float* packed, const float* bias,
                 float out_min, float out_max, float* output) {
  const size_t channels = size_t{s.groups} * kWidth;
  const uint32_t pixels = s.out_h * s.out_w;
  for (uint32_t n = 0; n < s.batch; ++n) {
    const float* image = input + size_t{n} * s.in_h * s.in_w * channels;
    float* out_image = output + size_t{n} * pixels * channels;
    for (uint32_t p0 = 0; p0 < pixels; p0 += 8) {
      const uint32_t count = std::min(8u, pixels - p0);
      if (count <= 4) {
        block_avx512<4>(s, image, packed, bias, p0, count, out_min, out_max, out_image);
      } else {
        block_avx512<8>(s, image, packed, bias, p0, count, out_min, out_max, out_image);
      }
    }
  }
}

EMBER_AVX512F_END

#else

bool avx512_available() { return false; }

void conv_avx512(const Grouped16ConvShape& s, const float* input, const float* packed, const float* bias,
                 float out_min, float out_max, float* output) {
  conv_portable(s, input, packed, bias, out_min, out_max, output);
}

#endif

}  // namespace

size_t grouped16_packed_floats(uint32_t groups, uint32_t kernel_h, uint32_t kernel_w) {
  return size_t{groups} * kernel_h * kernel_w * kWidth * kWidth;
}

void pack_grouped16_filter(const float* filter, uint32_t groups, uint32_t kernel_h, uint32_t kernel_w,
                           float* packed) {
  const size_t taps = size_t{kernel_h} * kernel_w;
  for (uint32_t g = 0; g < groups; ++g) {
    for (uint32_t o = 0; o < kWidth; ++o) {
      for (size_t t = 0; t < taps; ++t) {
        for (uint32_t c = 0; c < kWidth; ++c) {
          const float v = filter[((size_t{g} * kWidth + o) * taps + t) * kWidth + c];
          packed[((size_t{g} * taps + t) * kWidth + c) * kWidth + o] = v;
        }
      }
    }
  }
}

bool grouped16_vectorized() { return avx512_available(); }

void grouped16_conv(const Grouped16ConvShape& shape, const float* input, const float* packed,
                    const float* bias, float out_min, float out_max, float* output, bool portable) {
  if (!portable && shape.kernel_h * shape.kernel_w <= kMaxTaps && avx512_available()) {
    conv_avx512(shape, input, packed, bias, out_min, out_max, output);
  } else {
    conv_portable(shape, input, packed, bias, out_min, out_max, output);
  }
}

}  // namespace ember::backends::xnnpack
