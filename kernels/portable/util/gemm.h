// Single-precision GEMM for conv, mm, bmm, addmm, linear:
//   C[i][j] = alpha * sum_p A[i][p] * B[p][j] + beta * C[i][j] + bias_m[i] + bias_n[j]
// with arbitrary strides for A and B and unit column stride for C. Cache
// blocked (KC x NC panels of B, MC x KC blocks of A, packed into stack
// buffers) around an MR x NR register-blocked micro-kernel written with
// portable vector extensions; on x86-64 CPUs with AVX-512F or AVX2+FMA a copy
// compiled for them is picked at run time, on aarch64 the NEON copy, the portable
// build otherwise. B may also be produced by a caller's packer (implicit-GEMM
// convolution, no im2col buffer). With a thread pool, column blocks (or, when
// there is one, row blocks) are split across threads.
#pragma once

#include <cstdint>

#include "runtime/core/thread_pool.h"

namespace ember::kernels::portable {

// Writes B[p0 .. p0+kc) x [j0 .. j0+nc) into `dst` as column panels of `nr`
// columns: for each panel, for each p, `nr` floats (zero beyond nc).
using PackBFn = void (*)(const void* context, int64_t p0, int64_t kc, int64_t j0, int64_t nc,
                         int64_t nr, float* dst);
// Writes A[i0 .. i0+mc) x [p0 .. p0+kc) into `dst` as row panels of `mr`
// rows: for each panel, for each p, `mr` floats (zero beyond mc).
using PackAFn = void (*)(const void* context, int64_t i0, int64_t mc, int64_t p0, int64_t kc,
                         int64_t mr, float* dst);

struct GemmArgs {
  int64_t m = 0, n = 0, k = 0;
  const float* a = nullptr;
  int64_t a_rs = 0, a_cs = 0;  // A[i][p] = a[i * a_rs + p * a_cs]
  PackAFn pack_a = nullptr;    // if set, used instead of a/a_rs/a_cs
  const void* pack_a_context = nullptr;
  const float* b = nullptr;
  int64_t b_rs = 0, b_cs = 0;  // B[p][j] = b[p * b_rs + j * b_cs]
  PackBFn pack_b = nullptr;    // if set, used instead of b/b_rs/b_cs
  const void* pack_b_context = nullptr;
  // If set (and A is row-major with a_cs == 1, pack_a/pack_b unset): B[p][j] =
  // b[b_offsets[p] + j], read in place, never packed (convolution over a padded
  // input copy). The micro-kernels then read up to kGemmBSlack floats past
  // b[b_offsets[p] + n - 1]; the caller keeps them readable.
  const int64_t* b_offsets = nullptr;
  float* c = nullptr;
  int64_t c_rs = 0;  // C[i][j] = c[i * c_rs + j]
  float alpha = 1.0f;
  float beta = 0.0f;  // 0: C is not read
  const float* bias_m = nullptr;
  const float* bias_n = nullptr;
};

// Args for contiguous row-major C[m,n] = A[m,k] * B[k,n] (alpha 1, beta 0, no bias).
inline GemmArgs row_major_gemm(int64_t m, int64_t n, int64_t k, const float* a, const float* b, float* c) {
  GemmArgs g;
  g.m = m;
  g.n = n;
  g.k = k;
  g.a = a;
  g.a_rs = k;
  g.a_cs = 1;
  g.b = b;
  g.b_rs = n;
  g.b_cs = 1;
  g.c = c;
  g.c_rs = n;
  return g;
}

// Floats the b_offsets mode may read past the last column of a B row.
constexpr int64_t kGemmBSlack = 64;

void sgemm(const GemmArgs& args, runtime::ThreadPool* pool);

// The implementations sgemm picks from (exposed for tests and benchmarks).
void sgemm_portable(const GemmArgs& args, runtime::ThreadPool* pool);
// False if this build or CPU has no AVX2+FMA variant.
bool sgemm_avx2(const GemmArgs& args, runtime::ThreadPool* pool);
// False if this build or CPU has no AVX-512F variant.
bool sgemm_avx512(const GemmArgs& args, runtime::ThreadPool* pool);
// False if this build is not for aarch64 (NEON, fused multiply-adds; gemm_neon.cc).
bool sgemm_neon(const GemmArgs& args, runtime::ThreadPool* pool);

}  // namespace ember::kernels::portable
