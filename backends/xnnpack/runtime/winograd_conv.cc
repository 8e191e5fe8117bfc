#include "backends/xnnpack/runtime/winograd_conv.h"

#include "backends/xnnpack/runtime/avx512_region.h"

#include <cpuinfo.h>

#include <algorithm>
#include <cstring>

namespace ember::backends::xnnpack {
namespace {

// 1-D filter transforms u = G w (n values from 3), in double.
void g_transform(uint32_t m, const double* w, double* u) {
  if (m == 2) {
    u[0] = w[0];
    u[1] = 0.5 * (w[0] + w[1] + w[2]);
    u[2] = 0.5 * (w[0] - w[1] + w[2]);
    u[3] = w[2];
    return;
  }
  u[0] = w[0] / 4;
  u[1] = -(w[0] + w[1] + w[2]) / 6;
  u[2] = -(w[0] - w[1] + w[2]) / 6;
  u[3] = w[0] / 24 + w[1] / 12 + w[2] / 6;
  u[4] = w[0] / 24 - w[1] / 12 + w[2] / 6;
  u[5] = w[2];
}

}  // namespace

uint32_t winograd_tile(uint32_t ci, uint32_t co, uint32_t out_h, uint32_t out_w, uint32_t nr,
                       uint64_t l2, uint64_t min_tiles) {
  if (ci == 0 || ci % 16 != 0 || co % 16 != 0 || co < nr || out_h == 0 || out_w == 0) return 0;
  for (const uint32_t m : {4u, 2u}) {
    // F(4,3): its transformed filter within 3/4 of L2. F(2,3): the direct filter within 3/4 of
    // L2 (its 16/9 larger transformed filter is n² separate GEMMs' weights, read once per tile
    // block); larger filters are the blocked convolution's (blocked_conv.h).
    const uint64_t taps = m == 4 ? 36 : 9;
    if (taps * ci * co * sizeof(float) * 4 > l2 * 3) continue;
    const uint64_t covered = uint64_t{(out_h + m - 1) / m * m} * ((out_w + m - 1) / m * m);
    if (winograd_tiles(m, out_h, out_w) < min_tiles) continue;
    if (uint64_t{out_h} * out_w * 4 >= covered * 3) return m;  // >= 3/4 real pixels
  }
  return 0;
}

void winograd_transform_filter(uint32_t m, const float* filter, uint32_t ci, uint32_t co,
                               float* out) {
  const uint32_t n = m + 2;
  for (uint32_t o = 0; o < co; ++o) {
    for (uint32_t c = 0; c < ci; ++c) {
      double t[6][3], u[6][6];
      for (uint32_t j = 0; j < 3; ++j) {
        double col[3], r[6];
        for (uint32_t i = 0; i < 3; ++i) {
          float f;  // bytewise: a payload's constant region need not be float-aligned
          std::memcpy(&f, filter + ((size_t{o} * 3 + i) * 3 + j) * ci + c, sizeof(f));
          col[i] = f;
        }
        g_transform(m, col, r);
        for (uint32_t i = 0; i < n; ++i) t[i][j] = r[i];
      }
      for (uint32_t i = 0; i < n; ++i) g_transform(m, t[i], u[i]);
      for (uint32_t i = 0; i < n; ++i) {
        for (uint32_t j = 0; j < n; ++j) {
          out[(size_t{i * n + j} * ci + c) * co + o] = static_cast<float>(u[i][j]);
        }
      }
    }
  }
}

#if defined(__x86_64__) && defined(__GNUC__)

bool winograd_available() { return cpuinfo_initialize() && cpuinfo_has_x86_avx512f(); }

// Everything below runs only where winograd_available(): compiled for AVX-512F, 16 floats per
// vector, an n x n patch of vectors in registers.
EMBER_AVX512F_BEGIN
namespace {

typedef float V16 __attribute__((vector_size(64), aligned(4)));

inline V16 load16(const float* p) {
  V16 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}
inline void store16(float* p, V16 v) { std::memcpy(p, &v, sizeof(v)); }

// B^T d and A^T m along one axis: elements s apart.
template <uint32_t M>
struct Tr;

template <>
struct Tr<2> {
  static void bt(const V16* d, V16* t, uint32_t s) {
    const V16 d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s];
    t[0] = d0 - d2;
    t[s] = d1 + d2;
    t[2 * s] = d2 - d1;
    t[3 * s] = d1 - d3;
  }
  static void at(const V16* m, V16* y, uint32_t s) {
    y[0] = m[0] + m[s] + m[2 * s];
    y[s] = m[s] - m[2 * s] - m[3 * s];
  }
};

template <>
struct Tr<4> {
  static void bt(const V16* d, V16* t, uint32_t s) {
    const V16 d0 = d[0], d1 = d[s], d2 = d[2 * s], d3 = d[3 * s], d4 = d[4 * s], d5 = d[5 * s];
    t[0] = 4.f * d0 - 5.f * d2 + d4;
    t[s] = d3 + d4 - 4.f * (d1 + d2);
    t[2 * s] = 4.f * (d1 - d2) + d4 - d3;
    t[3 * s] = 2.f * (d3 - d1) + d4 - d2;
    t[4 * s] = 2.f * (d1 - d3) + d4 - d2;
    t[5 * s] = 4.f * d1 - 5.f * d3 + d5;
  }
  static void at(const V16* m, V16* y, uint32_t s) {
    const V16 m0 = m[0], m1 = m[s], m2 = m[2 * s], m3 = m[3 * s], m4 = m[4 * s], m5 = m[5 * s];
    const V16 a = m1 + m2, b = m1 - m2, c = m3 + m4, e = m3 - m4;
    y[0] = m0 + a + c;
    y[s] = b + 2.f * e;
    y[2 * s] = a + 4.f * c;
    y[3 * s] = b + 8.f * e + m5;
  }
};

template <uint32_t M>
void input_tiles(const float* x, uint32_t h, uint32_t w, uint32_t ci, uint32_t pad, uint64_t t0,
                 uint32_t count, uint32_t k_begin, uint32_t k_end, float* v) {
  constexpr uint32_t N = M + 2;
  const uint32_t oh = h + 2 * pad - 2, ow = w + 2 * pad - 2;
  const uint64_t tw = (ow + M - 1) / M, tiles = winograd_tiles(M, oh, ow);
  const size_t plane = size_t{count} * ci;
  const V16 zero = {};
  V16 d[N][N], t[N][N];
  for (uint32_t k = k_begin; k < k_end; ++k) {
    const uint64_t tile = t0 + k;
    const int64_t y0 = int64_t(tile / tw * M) - pad, x0 = int64_t(tile % tw * M) - pad;
    for (uint32_t c = 0; c < ci; c += 16) {
#pragma GCC unroll 8
      for (uint32_t i = 0; i < N; ++i) {
#pragma GCC unroll 8
        for (uint32_t j = 0; j < N; ++j) {
          const int64_t yy = y0 + i, xx = x0 + j;
          const bool inside = tile < tiles && yy >= 0 && yy < h && xx >= 0 && xx < w;
          d[i][j] = inside ? load16(x + (size_t(yy) * w + size_t(xx)) * ci + c) : zero;
        }
      }
#pragma GCC unroll 8
      for (uint32_t j = 0; j < N; ++j) Tr<M>::bt(&d[0][j], &t[0][j], N);
#pragma GCC unroll 8
      for (uint32_t i = 0; i < N; ++i) Tr<M>::bt(&t[i][0], &d[i][0], 1);
      float* out = v + size_t{k} * ci + c;
#pragma GCC unroll 8
      for (uint32_t i = 0; i < N; ++i) {
#pragma GCC unroll 8
        for (uint32_t j = 0; j < N; ++j) store16(out + (i * N + j) * plane, d[i][j]);
      }
    }
  }
}

template <uint32_t M>
void output_tiles(const float* mo, const float* bias, float lo, float hi, uint32_t oh, uint32_t ow,
                  uint32_t co, size_t stride, uint64_t t0, uint32_t count, uint32_t k_begin,
                  uint32_t k_end, float* y) {
  constexpr uint32_t N = M + 2;
  const uint64_t tw = (ow + M - 1) / M, tiles = winograd_tiles(M, oh, ow);
  const size_t plane = size_t{count} * co;
  V16 m[N][N], t[M][N], r[M][M];
  V16 vlo, vhi;
  for (uint32_t l = 0; l < 16; ++l) vlo[l] = lo, vhi[l] = hi;
  for (uint32_t k = k_begin; k < k_end && t0 + k < tiles; ++k) {
    const uint64_t tile = t0 + k, y0 = tile / tw * M, x0 = tile % tw * M;
    for (uint32_t o = 0; o < co; o += 16) {
      const float* in = mo + size_t{k} * co + o;
#pragma GCC unroll 8
      for (uint32_t i = 0; i < N; ++i) {
#pragma GCC unroll 8
        for (uint32_t j = 0; j < N; ++j) m[i][j] = load16(in + (i * N + j) * plane);
      }
#pragma GCC unroll 8
      for (uint32_t j = 0; j < N; ++j) Tr<M>::at(&m[0][j], &t[0][j], N);
#pragma GCC unroll 8
      for (uint32_t i = 0; i < M; ++i) Tr<M>::at(&t[i][0], &r[i][0], 1);
      const V16 b = bias != nullptr ? load16(bias + o) : V16{};
#pragma GCC unroll 8
      for (uint32_t i = 0; i < M; ++i) {
#pragma GCC unroll 8
        for (uint32_t j = 0; j < M; ++j) {
          if (y0 + i >= oh || x0 + j >= ow) continue;
          V16 s = r[i][j] + b;
          s = s < vlo ? vlo : s;
          s = s > vhi ? vhi : s;
          store16(y + ((y0 + i) * ow + x0 + j) * stride + o, s);
        }
      }
    }
  }
}

}  // namespace

void winograd_input_transform_range(uint32_t m, const float* x, uint32_t h, uint32_t w,
                                    uint32_t ci, uint32_t pad, uint64_t t0, uint32_t count,
                                    uint32_t k_begin, uint32_t k_end, float* v) {
  if (m == 4) {
    input_tiles<4>(x, h, w, ci, pad, t0, count, k_begin, k_end, v);
  } else {
    input_tiles<2>(x, h, w, ci, pad, t0, count, k_begin, k_end, v);
  }
}

void winograd_output_transform_range(uint32_t m, const float* mo, const float* bias, float lo,
                                     float hi, uint32_t out_h, uint32_t out_w, uint32_t co,
                                     size_t output_stride, uint64_t t0, uint32_t count,
                                     uint32_t k_begin, uint32_t k_end, float* y) {
  if (m == 4) {
    output_tiles<4>(mo, bias, lo, hi, out_h, out_w, co, output_stride, t0, count, k_begin, k_end, y);
  } else {
    output_tiles<2>(mo, bias, lo, hi, out_h, out_w, co, output_stride, t0, count, k_begin, k_end, y);
  }
}
EMBER_AVX512F_END

#else  // no AVX-512F build of the transforms: the delegate keeps its other forms.

bool winograd_available() { return false; }

void winograd_input_transform_range(uint32_t, const float*, uint32_t, uint32_t, uint32_t, uint32_t,
                                    uint64_t, uint32_t, uint32_t, uint32_t, float*) {}

void winograd_output_transform_range(uint32_t, const float*, const float*, float, float, uint32_t,
                                     uint32_t, uint32_t, size_t, uint64_t, uint32_t, uint32_t,
                                     uint32_t, float*) {}

#endif

void winograd_input_transform(uint32_t m, const float* x, uint32_t h, uint32_t w, uint32_t ci,
                              uint32_t pad, uint64_t t0, uint32_t count, float* v) {
  winograd_input_transform_range(m, x, h, w, ci, pad, t0, count, 0, count, v);
}

void winograd_output_transform(uint32_t m, const float* mo, const float* bias, float lo, float hi,
                               uint32_t out_h, uint32_t out_w, uint32_t co, size_t output_stride,
                               uint64_t t0, uint32_t count, float* y) {
  winograd_output_transform_range(m, mo, bias, lo, hi, out_h, out_w, co, output_stride, t0, count,
                                  0, count, y);
}

}  // namespace ember::backends::xnnpack
