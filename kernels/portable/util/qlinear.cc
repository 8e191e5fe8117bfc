// Dynamically quantized linear layers: row quantization, the scalar reference and the dispatch
// (see qlinear.h).
#include "kernels/portable/util/qlinear.h"

#include <algorithm>
#include <cmath>

namespace ember::kernels::portable {

void quantize_rows_int8(const float* x, int64_t m, int64_t k, int64_t ldx, int8_t* q,
                        float* scales, int32_t* chunk_sums) {
  for (int64_t r = 0; r < m; ++r) {
    const float* xr = x + r * ldx;
    float amax = 0.f;
    for (int64_t c = 0; c < k; ++c) amax = std::max(amax, std::fabs(xr[c]));
    const float inv = amax > 0.f ? 127.f / amax : 0.f;
    scales[r] = amax > 0.f ? amax / 127.f : 1.f;
    int8_t* qr = q + r * k;
    for (int64_t c = 0; c < k; ++c) {
      // |x * inv| <= 127 up to rounding; the clamp keeps a NaN or an overshoot in range.
      const float v = std::nearbyint(xr[c] * inv);
      qr[c] = int8_t(v >= 127.f ? 127 : (v <= -127.f ? -127 : (v == v ? int(v) : 0)));
    }
    if (chunk_sums != nullptr) {
      for (int64_t ch = 0; ch < k / 32; ++ch) {
        int32_t s = 0;
        for (int64_t c = 0; c < 32; ++c) s += qr[ch * 32 + c];
        chunk_sums[r * (k / 32) + ch] = s;
      }
    }
  }
}

namespace {

inline int nibble(const uint8_t* row, int64_t c) {
  const uint8_t b = row[(c / 32) * 16 + (c % 16)];
  return ((c % 32) < 16 ? (b & 15) : (b >> 4)) - 8;
}

void scalar_path(const QLinearArgs& a, int64_t n0, int64_t n1) {
  for (int64_t r = 0; r < a.m; ++r) {
    const int8_t* q = a.a + r * a.k;
    float* out = a.out + r * a.n;
    for (int64_t j = n0; j < n1; ++j) {
      float acc;
      if (a.block == 0) {
        const int8_t* w = static_cast<const int8_t*>(a.w) + j * a.k;
        int32_t s = 0;
        for (int64_t c = 0; c < a.k; ++c) s += int32_t(q[c]) * int32_t(w[c]);
        acc = a.w_scales[j] * float(s);
      } else {
        const uint8_t* w = static_cast<const uint8_t*>(a.w) + j * (a.k / 2);
        const int64_t blocks = a.k / a.block;
        acc = 0.f;
        for (int64_t b = 0; b < blocks; ++b) {
          int32_t s = 0;
          for (int64_t c = b * a.block; c < (b + 1) * a.block; ++c) s += int32_t(q[c]) * nibble(w, c);
          acc += a.w_scales[j * blocks + b] * float(s);
        }
      }
      out[j] = a.a_scales[r] * acc + (a.bias ? a.bias[j] : 0.f);
    }
  }
}

QLinearFn best_path(const char** name) {
#if !defined(EMBER_SIZE_BUILD)
  if (QLinearFn f = qlinear_avx512vnni()) return *name = "avx512vnni", f;
  if (QLinearFn f = qlinear_avx2()) return *name = "avx2", f;
  if (QLinearFn f = qlinear_neon_dot()) return *name = "neon-dot", f;
#endif
  *name = "scalar";
  return scalar_path;
}

struct Chosen {
  const char* name = nullptr;
  QLinearFn fn = best_path(&name);
};

const Chosen& chosen() {
  static const Chosen c;
  return c;
}

struct Task {
  const QLinearArgs* args;
  QLinearFn fn;
  int64_t per;
};

}  // namespace

QLinearFn qlinear_scalar() { return scalar_path; }

const char* qlinear_path() { return chosen().name; }

void qlinear(const QLinearArgs& args, runtime::ThreadPool* pool) {
  const QLinearFn fn = chosen().fn;
  const size_t threads = pool ? pool->num_threads() : 1;
  if (threads <= 1 || args.n < 64) {
    fn(args, 0, args.n);
    return;
  }
  // Chunks of whole 16-channel groups, a few per thread so that uneven threads even out.
  const int64_t per = std::max<int64_t>(16, ((args.n / int64_t(threads * 4)) + 15) / 16 * 16);
  Task t{&args, fn, per};
  runtime::parallel_for(pool, size_t((args.n + per - 1) / per),
                        [](void* c, size_t i) {
                          const Task& t = *static_cast<const Task*>(c);
                          const int64_t n0 = int64_t(i) * t.per;
                          t.fn(*t.args, n0, std::min(t.args->n, n0 + t.per));
                        },
                        &t);
}

}  // namespace ember::kernels::portable
