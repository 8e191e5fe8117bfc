// ExecuTorch's LLM custom operators (see llama.h).
#include "kernels/portable/ops/llama.h"

#include <cmath>
#include <cstring>

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

// Dot product in four four-lane accumulators (16 floats per step; a head of 64 is four steps),
// then the lanes and the tail. Vector extensions: SSE2 / NEON in the portable build.
float dot(const float* a, const float* b, int64_t n) {
  Vec4 s0 = {0, 0, 0, 0}, s1 = s0, s2 = s0, s3 = s0;
  int64_t i = 0;
  for (; i + 16 <= n; i += 16) {
    s0 += load4(a + i) * load4(b + i);
    s1 += load4(a + i + 4) * load4(b + i + 4);
    s2 += load4(a + i + 8) * load4(b + i + 8);
    s3 += load4(a + i + 12) * load4(b + i + 12);
  }
  for (; i + 4 <= n; i += 4) s0 += load4(a + i) * load4(b + i);
  const Vec4 s = (s0 + s1) + (s2 + s3);
  float r = (s[0] + s[2]) + (s[1] + s[3]);
  for (; i < n; ++i) r += a[i] * b[i];
  return r;
}

// o[e] += w * v[e] for e < n (a loop the compiler vectorises: no reduction).
void axpy(float w, const float* __restrict v, float* __restrict o, int64_t n) {
  for (int64_t e = 0; e < n; ++e) o[e] += w * v[e];
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
  auto buf = ctx.allocate_temp(static_cast<size_t>(filled) * sizeof(float), alignof(float));
  if (!buf.ok()) {
    ctx.fail(Error::MemoryAllocationFailed, "%s: no temp memory for %lld scores", op,
             static_cast<long long>(filled));
    return out;
  }
  float* p = static_cast<float*>(buf.get());
  const float sc = scale.has_value() ? float(*scale) : 1.0f / std::sqrt(float(d));
  const int64_t group = hq / hk;
  const float* q = query.const_data_ptr<float>();
  const float* kc = key_cache.const_data_ptr<float>();
  const float* vc = value_cache.const_data_ptr<float>();
  float* o = out.mutable_data_ptr<float>();
  const VecMath& vm = vec_math();
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < s; ++i) {
      const int64_t keys = is_causal ? start_pos + i + 1 : filled;
      for (int64_t h = 0; h < hq; ++h) {
        const float* qv = q + ((b * s + i) * hq + h) * d;
        const int64_t kvh = h / group;
        float mx = -INFINITY;
        for (int64_t j = 0; j < keys; ++j) {
          p[j] = sc * dot(qv, kc + ((b * t + j) * hk + kvh) * d, d);
          mx = p[j] > mx ? p[j] : mx;
        }
        const float sum = vm.exp_shift_sum(p, mx, p, keys);  // vectorised exp (vec_math.h)
        vm.scale(p, 1.0f / sum, p, keys);
        float* ov = o + ((b * s + i) * hq + h) * d;
        for (int64_t e = 0; e < d; ++e) ov[e] = 0;
        for (int64_t j = 0; j < keys; ++j) axpy(p[j], vc + ((b * t + j) * hk + kvh) * d, ov, d);
      }
    }
  }
  return out;
}

}  // namespace ember::kernels::portable
