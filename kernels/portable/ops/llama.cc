// ExecuTorch's LLM custom operators (see llama.h).
#include "kernels/portable/ops/llama.h"

#include <cmath>
#include <cstring>

#include "kernels/portable/util/gemm.h"
#include "kernels/portable/util/tensor_util.h"
#include "kernels/portable/util/vec_math.h"

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;

bool contiguous_4d_float(KernelRuntimeContext& ctx, const Tensor& t, const char* op,
                         const char* what) {
  if (t.dim() != 4 || t.scalar_type() != ScalarType::Float) {
    ctx.fail(Error::InvalidArgument, "%s: %s must be a 4-D float32 tensor [B, S, H, D]", op, what);
    return false;
  }
  int64_t expected = 1;
  for (size_t d = 4; d-- > 0;) {
    if (t.size(d) != 1 && t.strides()[d] != expected) {
      ctx.fail(Error::InvalidArgument, "%s: %s must be contiguous", op, what);
      return false;
    }
    expected *= t.size(d);
  }
  return true;
}

typedef float Vec4 __attribute__((vector_size(16)));

Vec4 load4(const float* p) {
  Vec4 v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

void store4(float* p, Vec4 v) { std::memcpy(p, &v, sizeof(v)); }

// out[g * out_stride] = scale * q_g . k for the G query rows q_g = q + g * d that share key row
// k: the row is loaded once for the G of them (four-lane vectors: SSE2 / NEON in the portable
// build).
template <int G>
void group_scores(const float* q, const float* k, int64_t d, float scale, float* out,
                  int64_t out_stride) {
  const int64_t dv = d / 4 * 4;
  Vec4 acc[G];
  for (int g = 0; g < G; ++g) acc[g] = Vec4{0, 0, 0, 0};
  for (int64_t e = 0; e < dv; e += 4) {
    const Vec4 kv = load4(k + e);
    for (int g = 0; g < G; ++g) acc[g] += load4(q + g * d + e) * kv;
  }
  for (int g = 0; g < G; ++g) {
    float r = (acc[g][0] + acc[g][2]) + (acc[g][1] + acc[g][3]);
    for (int64_t e = dv; e < d; ++e) r += q[g * d + e] * k[e];
    out[g * out_stride] = scale * r;
  }
}

// o_g += w[g * w_stride] * v for the G output rows o_g = o + g * d that share value row v.
template <int G>
void group_mix(const float* w, int64_t w_stride, const float* v, int64_t d, float* o) {
  const int64_t dv = d / 4 * 4;
  float wg[G];
  for (int g = 0; g < G; ++g) wg[g] = w[g * w_stride];
  for (int64_t e = 0; e < dv; e += 4) {
    const Vec4 vv = load4(v + e);
    for (int g = 0; g < G; ++g) {
      store4(o + g * d + e, load4(o + g * d + e) + Vec4{wg[g], wg[g], wg[g], wg[g]} * vv);
    }
  }
  for (int64_t e = dv; e < d; ++e) {
    for (int g = 0; g < G; ++g) o[g * d + e] += wg[g] * v[e];
  }
}

// The rows of one kv head's query group, eight at a time, through group_scores / group_mix.
void scores_rows(const float* q, const float* k, int64_t d, float scale, int64_t rows,
                 float* out, int64_t out_stride) {
  for (int64_t r = 0; r < rows; r += 8) {
    const float* qr = q + r * d;
    float* o = out + r * out_stride;
    switch (rows - r < 8 ? rows - r : 8) {
      case 1: group_scores<1>(qr, k, d, scale, o, out_stride); break;
      case 2: group_scores<2>(qr, k, d, scale, o, out_stride); break;
      case 3: group_scores<3>(qr, k, d, scale, o, out_stride); break;
      case 4: group_scores<4>(qr, k, d, scale, o, out_stride); break;
      case 5: group_scores<5>(qr, k, d, scale, o, out_stride); break;
      case 6: group_scores<6>(qr, k, d, scale, o, out_stride); break;
      case 7: group_scores<7>(qr, k, d, scale, o, out_stride); break;
      default: group_scores<8>(qr, k, d, scale, o, out_stride); break;
    }
  }
}

void mix_rows(const float* w, int64_t w_stride, const float* v, int64_t d, int64_t rows, float* o) {
  for (int64_t r = 0; r < rows; r += 8) {
    const float* wr = w + r * w_stride;
    float* orow = o + r * d;
    switch (rows - r < 8 ? rows - r : 8) {
      case 1: group_mix<1>(wr, w_stride, v, d, orow); break;
      case 2: group_mix<2>(wr, w_stride, v, d, orow); break;
      case 3: group_mix<3>(wr, w_stride, v, d, orow); break;
      case 4: group_mix<4>(wr, w_stride, v, d, orow); break;
      case 5: group_mix<5>(wr, w_stride, v, d, orow); break;
      case 6: group_mix<6>(wr, w_stride, v, d, orow); break;
      case 7: group_mix<7>(wr, w_stride, v, d, orow); break;
      default: group_mix<8>(wr, w_stride, v, d, orow); break;
    }
  }
}

// A decode step's attention (one new position, every query head): the cache is read once, in
// order, position by position (all kv heads of a position are one contiguous row), each key and
// value row serving its kv head's whole query group; p holds hq x filled scores.
void attend_one_position(const float* q, float* o, const float* k, const float* v, int64_t hq,
                         int64_t hk, int64_t d, int64_t filled, float scale, float* p) {
  const int64_t group = hq / hk, row_stride = hk * d;
  for (int64_t j = 0; j < filled; ++j) {
    for (int64_t kvh = 0; kvh < hk; ++kvh) {
      scores_rows(q + kvh * group * d, k + j * row_stride + kvh * d, d, scale, group,
                  p + kvh * group * filled + j, filled);
    }
  }
  const VecMath& vm = vec_math();
  for (int64_t h = 0; h < hq; ++h) {
    float* ph = p + h * filled;
    float mx = -INFINITY;
    for (int64_t j = 0; j < filled; ++j) mx = ph[j] > mx ? ph[j] : mx;
    const float sum = vm.exp_shift_sum(ph, mx, ph, filled);  // vectorised exp (vec_math.h)
    vm.scale(ph, 1.0f / sum, ph, filled);
  }
  for (int64_t e = 0; e < hq * d; ++e) o[e] = 0.0f;
  for (int64_t j = 0; j < filled; ++j) {
    for (int64_t kvh = 0; kvh < hk; ++kvh) {
      mix_rows(p + kvh * group * filled + j, filled, v + j * row_stride + kvh * d, d, group,
               o + kvh * group * d);
    }
  }
}

// One query head's rows, as a matrix for sgemm: `m` positions `rs` floats apart from `q`, whose
// outputs go `rs` floats apart from `o`; row r is at sequence index r.
struct QueryRows {
  const float* q;
  float* o;
  int64_t m, rs;
};

// softmax(scale * Q K^T) V for one query head's rows over cache positions [0, filled), as two
// GEMMs on the calling thread (sgemm: the CPU's AVX-512 / AVX2 / NEON build): scores
// [m, filled] = Q K^T (K is the head's kv head), each row
// softmaxed over the keys it may see (causal: start_pos + its index + 1; the rest weigh 0), then
// out [m, D] = P V. K and V are read in place (rows Hkv * D floats apart); nothing past
// position filled - 1 is read.
void attend(const QueryRows& rows, const float* k, const float* v, int64_t row_stride, int64_t d,
            int64_t filled, int64_t start_pos, bool is_causal, float scale, float* p) {
  GemmArgs scores;
  scores.m = rows.m;
  scores.n = filled;
  scores.k = d;
  scores.a = rows.q;
  scores.a_rs = rows.rs;
  scores.a_cs = 1;
  scores.b = k;  // B[p][j] = K[j][p]
  scores.b_rs = 1;
  scores.b_cs = row_stride;
  scores.c = p;
  scores.c_rs = filled;
  scores.alpha = scale;
  sgemm(scores, nullptr);
  const VecMath& vm = vec_math();
  for (int64_t r = 0; r < rows.m; ++r) {
    float* pr = p + r * filled;
    const int64_t keys = is_causal ? start_pos + r + 1 : filled;
    float mx = -INFINITY;
    for (int64_t j = 0; j < keys; ++j) mx = pr[j] > mx ? pr[j] : mx;
    const float sum = vm.exp_shift_sum(pr, mx, pr, keys);  // vectorised exp (vec_math.h)
    vm.scale(pr, 1.0f / sum, pr, keys);
    for (int64_t j = keys; j < filled; ++j) pr[j] = 0.0f;
  }
  GemmArgs mix;
  mix.m = rows.m;
  mix.n = d;
  mix.k = filled;
  mix.a = p;
  mix.a_rs = filled;
  mix.a_cs = 1;
  mix.b = v;  // B[p][j] = V[p][j]
  mix.b_rs = row_stride;
  mix.b_cs = 1;
  mix.c = rows.o;
  mix.c_rs = rows.rs;
  sgemm(mix, nullptr);
}

}  // namespace

Tensor& llama_update_cache_out(KernelRuntimeContext& ctx, const Tensor& value, Tensor& cache,
                               int64_t start_pos, Tensor& out) {
  const char* op = "llama::update_cache.out";
  if (!contiguous_4d_float(ctx, value, op, "value") ||
      !contiguous_4d_float(ctx, cache, op, "cache")) {
    return out;
  }
  if (value.size(0) != cache.size(0) || value.size(2) != cache.size(2) ||
      value.size(3) != cache.size(3)) {
    ctx.fail(Error::InvalidArgument, "%s: value and cache differ outside dim 1", op);
    return out;
  }
  const int64_t s = value.size(1), t = cache.size(1);
  if (start_pos < 0 || start_pos + s > t) {
    ctx.fail(Error::InvalidArgument, "%s: positions [%lld, %lld) do not fit a cache of %lld", op,
             static_cast<long long>(start_pos), static_cast<long long>(start_pos + s),
             static_cast<long long>(t));
    return out;
  }
  const int64_t row = value.size(2) * value.size(3);  // one position: all heads
  const float* src = value.const_data_ptr<float>();
  float* dst = cache.mutable_data_ptr<float>();
  for (int64_t b = 0; b < value.size(0); ++b) {
    std::memcpy(dst + (b * t + start_pos) * row, src + b * s * row,
                static_cast<size_t>(s * row) * sizeof(float));
  }
  return out;
}

Tensor& llama_custom_sdpa_out(KernelRuntimeContext& ctx, const Tensor& query,
                              const Tensor& key_cache, const Tensor& value_cache, int64_t start_pos,
                              const Tensor* attn_mask, double dropout_p, bool is_causal,
                              std::optional<double> scale, Tensor& out) {
  const char* op = "llama::custom_sdpa.out";
  if (attn_mask != nullptr || dropout_p != 0.0) {
    ctx.fail(Error::NotSupported, "%s: attn_mask and dropout are not supported", op);
    return out;
  }
  if (!contiguous_4d_float(ctx, query, op, "query") ||
      !contiguous_4d_float(ctx, key_cache, op, "key_cache") ||
      !contiguous_4d_float(ctx, value_cache, op, "value_cache")) {
    return out;
  }
  const int64_t batch = query.size(0), s = query.size(1), hq = query.size(2), d = query.size(3);
  const int64_t t = key_cache.size(1), hk = key_cache.size(2);
  bool same = true;
  for (size_t k = 0; k < 4; ++k) same = same && key_cache.size(k) == value_cache.size(k);
  if (!same || key_cache.size(0) != batch || key_cache.size(3) != d || hk <= 0 || hq % hk != 0) {
    ctx.fail(Error::InvalidArgument,
             "%s: caches must be [B, T, Hkv, D] alike with Hq a multiple of Hkv", op);
    return out;
  }
  const int64_t filled = start_pos + s;
  if (start_pos < 0 || filled > t) {
    ctx.fail(Error::InvalidArgument, "%s: positions up to %lld do not fit a cache of %lld", op,
             static_cast<long long>(filled), static_cast<long long>(t));
    return out;
  }
  if (!resize_like(ctx, out, query, op) || !check_dtype(ctx, out, ScalarType::Float, op, "out")) {
    return out;
  }
  if (batch == 0 || s == 0 || d == 0) return out;
  const int64_t group = hq / hk;
  // A decode step (one position): one pass over the cache for all heads
  // (attend_one_position). A prefill: one query head at a time, its S positions as the rows of
  // two GEMMs (attend).
  const bool one_position = s == 1;
  const int64_t m = one_position ? hq : s;
  auto buf = ctx.allocate_temp(static_cast<size_t>(m * filled) * sizeof(float), 64);
  if (!buf.ok()) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: no temp memory for %lld x %lld scores", op,
             static_cast<long long>(m), static_cast<long long>(filled));
    return out;
  }
  float* p = static_cast<float*>(buf.get());
  const float sc = scale.has_value() ? float(*scale) : 1.0f / std::sqrt(float(d));
  const float* q = query.const_data_ptr<float>();
  const float* kc = key_cache.const_data_ptr<float>();
  const float* vc = value_cache.const_data_ptr<float>();
  float* o = out.mutable_data_ptr<float>();
  const int64_t row_stride = hk * d;  // one cache position: all kv heads
  for (int64_t b = 0; b < batch; ++b) {
    if (one_position) {
      attend_one_position(q + b * hq * d, o + b * hq * d, kc + b * t * row_stride,
                          vc + b * t * row_stride, hq, hk, d, filled, sc, p);
      continue;
    }
    for (int64_t h = 0; h < hq; ++h) {
      const int64_t kvh = h / group, first = (b * s * hq + h) * d;  // query h at index 0
      const QueryRows rows{q + first, o + first, s, hq * d};
      attend(rows, kc + b * t * row_stride + kvh * d, vc + b * t * row_stride + kvh * d,
             row_stride, d, filled, start_pos, is_causal, sc, p);
    }
  }
  return out;
}

}  // namespace ember::kernels::portable
