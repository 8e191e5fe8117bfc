// llama::update_cache.out and llama::custom_sdpa.out on tiny caches with expected values derived
// by hand: with D = 1 and scale 1, scores are q * k; keys 0 and ln 3 give softmax weights 1/4 and
// 3/4, so values 1 and 5 average to 4 (equal scores: 3). Cache entries past start_pos + S hold
// NaN: an output that stays finite proves they are never read.
#include "kernels/portable/ops/llama.h"

#include <gtest/gtest.h>

#include <cmath>
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

}  // namespace
}  // namespace ember::kernels::portable
