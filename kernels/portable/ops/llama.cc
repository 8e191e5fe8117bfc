// ExecuTorch's LLM custom operators (see llama.h).
#include "kernels/portable/ops/llama.h"

#include <cmath>
#include <cstring>

#include "kernels/portable/util/tensor_util.h"

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

float dot(const float* a, const float* b, int64_t n) {
  float s = 0;
  for (int64_t i = 0; i < n; ++i) s += a[i] * b[i];
  return s;
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
        float sum = 0;
        for (int64_t j = 0; j < keys; ++j) sum += (p[j] = std::exp(p[j] - mx));
        float* ov = o + ((b * s + i) * hq + h) * d;
        for (int64_t e = 0; e < d; ++e) ov[e] = 0;
        for (int64_t j = 0; j < keys; ++j) {
          const float w = p[j] / sum;
          const float* vv = vc + ((b * t + j) * hk + kvh) * d;
          for (int64_t e = 0; e < d; ++e) ov[e] += w * vv[e];
        }
      }
    }
  }
  return out;
}

}  // namespace ember::kernels::portable
