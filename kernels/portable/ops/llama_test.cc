// llama::update_cache.out and llama::custom_sdpa.out on tiny caches with expected values derived
// by hand: with D = 1 and scale 1, scores are q * k; keys 0 and ln 3 give softmax weights 1/4 and
// 3/4, so values 1 and 5 average to 4 (equal scores: 3). Cache entries past start_pos + S hold
// NaN: an output that stays finite proves they are never read.
#include "kernels/portable/ops/llama.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

namespace ember::kernels::portable {
namespace {

using runtime::Error;
using runtime::ScalarType;

struct Buffer {
  Buffer(std::vector<int64_t> shape, std::vector<float> values)
      : data(std::move(values)),
        sizes(shape.begin(), shape.end()),
        order(shape.size()),
        strides(shape.size()) {
    int64_t st = 1;
    for (size_t i = shape.size(); i-- > 0;) {
      order[i] = static_cast<runtime::DimOrderType>(i);
      strides[i] = static_cast<runtime::StridesType>(st);
      st *= shape[i];
    }
    tensor = runtime::Tensor(ScalarType::Float, shape.size(), sizes.data(), order.data(),
                             strides.data(), data.data(), runtime::ShapeDynamism::DynamicBound);
  }
  std::vector<float> data;
  std::vector<runtime::SizesType> sizes;
  std::vector<runtime::DimOrderType> order;
  std::vector<runtime::StridesType> strides;
  runtime::Tensor tensor;
};

constexpr float kNan = NAN;
const float kLn3 = std::log(3.0f);

TEST(LlamaOpsTest, UpdateCacheWritesThePositionsOnly) {
  Buffer value({1, 2, 1, 2}, {1, 2, 3, 4});
  Buffer cache({1, 4, 1, 2}, std::vector<float>(8, 0.f));
  Buffer out({1}, {0});
  runtime::KernelRuntimeContext ctx;
  llama_update_cache_out(ctx, value.tensor, cache.tensor, 1, out.tensor);
  EXPECT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_EQ(cache.data, (std::vector<float>{0, 0, 1, 2, 3, 4, 0, 0}));
  runtime::KernelRuntimeContext bad;
  llama_update_cache_out(bad, value.tensor, cache.tensor, 3, out.tensor);  // 3 + 2 > 4
  EXPECT_EQ(bad.failure_state(), Error::InvalidArgument);
  EXPECT_EQ(cache.data, (std::vector<float>{0, 0, 1, 2, 3, 4, 0, 0}));
}

TEST(LlamaOpsTest, CustomSdpaDecodeStepWithGqaReadsFilledPositionsOnly) {
  // One new query at position 1 (start_pos 1, S 1): positions 0 and 1 are filled.
  Buffer q({1, 1, 2, 1}, {1.f, 0.f});  // head 0: q = 1, head 1: q = 0; both read kv head 0
  Buffer k({1, 4, 1, 1}, {0.f, kLn3, kNan, kNan});
  Buffer v({1, 4, 1, 1}, {1.f, 5.f, kNan, kNan});
  Buffer out({1, 1, 2, 1}, {0, 0});
  std::vector<double> temp(64);
  runtime::MemoryAllocator alloc(temp.data(), temp.size() * sizeof(double));
  runtime::KernelRuntimeContext ctx(&alloc);
  llama_custom_sdpa_out(ctx, q.tensor, k.tensor, v.tensor, 1, nullptr, 0.0, true, 1.0, out.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_NEAR(out.data[0], 4.0f, 1e-5);  // weights 1/4, 3/4
  EXPECT_NEAR(out.data[1], 3.0f, 1e-5);  // equal weights
}

TEST(LlamaOpsTest, CustomSdpaPrefillIsCausalWhenAsked) {
  Buffer q({1, 2, 1, 1}, {1.f, 1.f});
  Buffer k({1, 4, 1, 1}, {0.f, kLn3, kNan, kNan});
  Buffer v({1, 4, 1, 1}, {1.f, 5.f, kNan, kNan});
  std::vector<double> temp(64);
  runtime::MemoryAllocator alloc(temp.data(), temp.size() * sizeof(double));
  Buffer causal({1, 2, 1, 1}, {0, 0});
  runtime::KernelRuntimeContext ctx(&alloc);
  llama_custom_sdpa_out(ctx, q.tensor, k.tensor, v.tensor, 0, nullptr, 0.0, true, std::nullopt,
                        causal.tensor);
  ASSERT_EQ(ctx.failure_state(), Error::Ok);
  EXPECT_NEAR(causal.data[0], 1.0f, 1e-5);  // query 0 sees key 0 only
  EXPECT_NEAR(causal.data[1], 4.0f, 1e-5);
  Buffer full({1, 2, 1, 1}, {0, 0});
  runtime::MemoryAllocator alloc2(temp.data(), temp.size() * sizeof(double));
  runtime::KernelRuntimeContext ctx2(&alloc2);
  llama_custom_sdpa_out(ctx2, q.tensor, k.tensor, v.tensor, 0, nullptr, 0.0, false, std::nullopt,
                        full.tensor);
  ASSERT_EQ(ctx2.failure_state(), Error::Ok);
  EXPECT_NEAR(full.data[0], 4.0f, 1e-5);
  EXPECT_NEAR(full.data[1], 4.0f, 1e-5);
}

TEST(LlamaOpsTest, CustomSdpaRejectsOverflowAndMasks) {
  Buffer q({1, 2, 1, 1}, {1.f, 1.f});
  Buffer k({1, 2, 1, 1}, {0.f, 0.f});
  Buffer out({1, 2, 1, 1}, {0, 0});
  std::vector<double> temp(64);
  runtime::MemoryAllocator alloc(temp.data(), temp.size() * sizeof(double));
  runtime::KernelRuntimeContext ctx(&alloc);
  llama_custom_sdpa_out(ctx, q.tensor, k.tensor, k.tensor, 1, nullptr, 0.0, true, std::nullopt,
                        out.tensor);  // positions up to 3 in a cache of 2
  EXPECT_EQ(ctx.failure_state(), Error::InvalidArgument);
  runtime::KernelRuntimeContext masked(&alloc);
  llama_custom_sdpa_out(masked, q.tensor, k.tensor, k.tensor, 0, &k.tensor, 0.0, true, std::nullopt,
                        out.tensor);
  EXPECT_EQ(masked.failure_state(), Error::NotSupported);
}

// A plain double-precision reference: out[b, i, h] = sum_j softmax_j(scale q.k_j) v_j over the
// keys query i may see.
std::vector<float> reference_sdpa(const std::vector<float>& q, const std::vector<float>& k,
                                  const std::vector<float>& v, int64_t batch, int64_t s,
                                  int64_t hq, int64_t t, int64_t hk, int64_t d, int64_t start_pos,
                                  bool causal, double scale) {
  std::vector<float> out(static_cast<size_t>(batch * s * hq * d));
  for (int64_t b = 0; b < batch; ++b) {
    for (int64_t i = 0; i < s; ++i) {
      for (int64_t h = 0; h < hq; ++h) {
        const int64_t kvh = h / (hq / hk), keys = causal ? start_pos + i + 1 : start_pos + s;
        std::vector<double> w(static_cast<size_t>(keys));
        double mx = -INFINITY, sum = 0;
        for (int64_t j = 0; j < keys; ++j) {
          double dot = 0;
          for (int64_t e = 0; e < d; ++e) {
            dot += double(q[((b * s + i) * hq + h) * d + e]) * k[((b * t + j) * hk + kvh) * d + e];
          }
          w[j] = scale * dot;
          mx = std::max(mx, w[j]);
        }
        for (double& x : w) sum += (x = std::exp(x - mx));
        for (int64_t e = 0; e < d; ++e) {
          double acc = 0;
          for (int64_t j = 0; j < keys; ++j) acc += w[j] / sum * v[((b * t + j) * hk + kvh) * d + e];
          out[((b * s + i) * hq + h) * d + e] = float(acc);
        }
      }
    }
  }
  return out;
}

std::vector<float> pseudo_random(size_t n, uint32_t seed) {
  std::vector<float> x(n);
  for (float& f : x) {
    seed = seed * 1664525u + 1013904223u;
    f = float(int32_t(seed >> 8) % 2001 - 1000) / 500.0f;  // [-2, 2]
  }
  return x;
}

// Grouped-query attention at a decoder's sizes (9 query heads over 3 kv heads, D 64, as the
// SmolLM2-135M shape) against the reference: a 7-token prefill after 5 cached positions, a
// decode step, causal and not, two batches. Cache positions past start_pos + S hold NaN.
TEST(LlamaOpsTest, CustomSdpaMatchesAReferenceForGqaPrefillAndDecode) {
  const int64_t batch = 2, hq = 9, hk = 3, d = 64, t = 16;
  for (const int64_t s : {int64_t{7}, int64_t{1}}) {
    for (const bool causal : {true, false}) {
      const int64_t start_pos = 5;
      std::vector<float> kv = pseudo_random(size_t(batch * t * hk * d), 11);
      std::vector<float> vv = pseudo_random(size_t(batch * t * hk * d), 13);
      for (int64_t b = 0; b < batch; ++b) {
        for (int64_t j = start_pos + s; j < t; ++j) {
          for (int64_t x = 0; x < hk * d; ++x) {
            kv[(b * t + j) * hk * d + x] = kNan;
            vv[(b * t + j) * hk * d + x] = kNan;
          }
        }
      }
      Buffer q({batch, s, hq, d}, pseudo_random(size_t(batch * s * hq * d), 7));
      Buffer k({batch, t, hk, d}, kv);
      Buffer v({batch, t, hk, d}, vv);
      Buffer out({batch, s, hq, d}, std::vector<float>(size_t(batch * s * hq * d), 0.f));
      std::vector<double> temp(8192);
      runtime::MemoryAllocator alloc(temp.data(), temp.size() * sizeof(double));
      runtime::KernelRuntimeContext ctx(&alloc);
      llama_custom_sdpa_out(ctx, q.tensor, k.tensor, v.tensor, start_pos, nullptr, 0.0, causal,
                            std::nullopt, out.tensor);
      ASSERT_EQ(ctx.failure_state(), Error::Ok);
      const std::vector<float> want = reference_sdpa(q.data, kv, vv, batch, s, hq, t, hk, d,
                                                     start_pos, causal, 1.0 / std::sqrt(64.0));
      double worst = 0;
      for (size_t x = 0; x < want.size(); ++x) {
        worst = std::max(worst, double(std::fabs(out.data[x] - want[x])));
      }
      EXPECT_LT(worst, 2e-5) << "S " << s << (causal ? " causal" : " full");
    }
  }
}

}  // namespace
}  // namespace ember::kernels::portable
