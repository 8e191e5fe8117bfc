// sgemm: picks the AVX-512 or AVX2 build when the CPU has it, the NEON build on
// aarch64, else the portable one. The x86 and NEON builds use fused multiply-adds,
// which differ from PyTorch's results only when a product overflows (inf where
// PyTorch gets inf - inf = NaN); such outputs are recomputed here with separately
// rounded products.
#include "kernels/portable/util/gemm.h"

#include <cmath>
#include <cstdint>
#include <cstring>

namespace ember::kernels::portable {

namespace {

constexpr int64_t kChunk = 256;

float a_at(const GemmArgs& g, int64_t i, int64_t p) { return g.a[i * g.a_rs + p * g.a_cs]; }
float b_at(const GemmArgs& g, int64_t p, int64_t j) {
  return g.b_offsets != nullptr ? g.b[g.b_offsets[p] + j] : g.b[p * g.b_rs + j * g.b_cs];
}

// C[i][j] recomputed as a plain sum of rounded products, in order of p.
float recompute(const GemmArgs& g, int64_t i, int64_t j) {
  float acc = 0.0f;
  float av[kChunk], bv[kChunk];
  for (int64_t p0 = 0; p0 < g.k; p0 += kChunk) {
    const int64_t kc = g.k - p0 < kChunk ? g.k - p0 : kChunk;
    if (g.pack_a != nullptr) {
      g.pack_a(g.pack_a_context, i, 1, p0, kc, 1, av);
    } else {
      for (int64_t p = 0; p < kc; ++p) av[p] = a_at(g, i, p0 + p);
    }
    if (g.pack_b != nullptr) {
      g.pack_b(g.pack_b_context, p0, kc, j, 1, 1, bv);
    } else {
      for (int64_t p = 0; p < kc; ++p) bv[p] = b_at(g, p0 + p, j);
    }
    for (int64_t p = 0; p < kc; ++p) {
      const volatile float product = av[p] * bv[p];
      acc += product;
    }
  }
  float v = g.alpha * acc;
  if (g.bias_m != nullptr) v += g.bias_m[i];
  if (g.bias_n != nullptr) v += g.bias_n[j];
  return v;
}

// Whether any of c[0 .. n) is infinite: an integer count over the bit patterns (exponent
// all ones, mantissa zero), which the compiler vectorises.
bool any_inf(const float* c, int64_t n) {
  uint32_t count = 0;
  for (int64_t j = 0; j < n; ++j) {
    uint32_t bits;
    std::memcpy(&bits, c + j, sizeof(bits));
    count += (bits & 0x7fffffffu) == 0x7f800000u ? 1u : 0u;
  }
  return count != 0;
}

void fix_overflows(const GemmArgs& g) {
  if (g.beta != 0.0f) return;
  for (int64_t i = 0; i < g.m; ++i) {
    float* c = g.c + i * g.c_rs;
    if (!any_inf(c, g.n)) continue;
    for (int64_t j = 0; j < g.n; ++j) {
      if (std::isinf(c[j])) c[j] = recompute(g, i, j);
    }
  }
}

}  // namespace

void sgemm(const GemmArgs& args, runtime::ThreadPool* pool) {
  if (sgemm_avx512(args, pool) || sgemm_avx2(args, pool) || sgemm_neon(args, pool)) {
    if (args.k > 0) fix_overflows(args);
    return;
  }
  sgemm_portable(args, pool);
}

}  // namespace ember::kernels::portable
