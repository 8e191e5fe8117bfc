// llama::custom_sdpa.out (kernels/portable/ops/llama.h) at the SmolLM2-135M shape (9 query heads
// over 3 kv heads, head 64, a 128-position cache), one thread: a 64-token prefill from position 0
// and decode steps at positions 64 and 127. One call per layer; the model makes 30. cold:1 evicts
// the caches before each call (a 64 MB write, untimed), as a decode step's stream of weights does
// between one layer's attention and the next.
//   bazel run -c opt //benchmarks:llm_attention_benchmark
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "kernels/portable/ops/llama.h"
#include "kernels/test/test_tensor.h"

namespace ember::kernels {
namespace {

using runtime::ScalarType;
using testing::TestTensor;

std::unique_ptr<TestTensor> random_tensor(std::vector<int32_t> sizes, uint32_t seed) {
  auto t = std::make_unique<TestTensor>(ScalarType::Float, std::move(sizes));
  float* p = t->t().mutable_data_ptr<float>();
  for (size_t i = 0; i < t->t().numel(); ++i) {
    seed = seed * 1664525u + 1013904223u;
    p[i] = float(seed >> 8) / float(1 << 24) - 0.5f;
  }
  return t;
}

// args = {S (new positions), start_pos, cold}
void BM_CustomSdpa(benchmark::State& state) {
  const int32_t s = int32_t(state.range(0)), start = int32_t(state.range(1));
  const bool cold = state.range(2) != 0;
  std::vector<char> evict(cold ? size_t(64) << 20 : 0);
  const int32_t hq = 9, hk = 3, d = 64, t = 128;
  auto q = random_tensor({1, s, hq, d}, 1);
  auto k = random_tensor({1, t, hk, d}, 2);
  auto v = random_tensor({1, t, hk, d}, 3);
  TestTensor out(ScalarType::Float, {1, s, hq, d});
  std::vector<double> temp(size_t(1) << 17);
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      for (size_t i = 0; i < evict.size(); i += 64) evict[i] = char(i);
      benchmark::DoNotOptimize(evict.data());
      state.ResumeTiming();
    }
    runtime::MemoryAllocator alloc(temp.data(), temp.size() * sizeof(double));
    runtime::KernelRuntimeContext ctx(&alloc);
    portable::llama_custom_sdpa_out(ctx, q->t(), k->t(), v->t(), start, nullptr, 0.0, true,
                                    std::nullopt, out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  const double filled = double(start) + s;
  // Multiply-adds: q.k and p.v over the keys each row sees (causal: on average half the new ones).
  state.counters["GMAC/s"] = benchmark::Counter(
      2.0 * hq * d * s * (start + (s + 1) / 2.0) * state.iterations() / 1e9,
      benchmark::Counter::kIsRate);
  state.counters["keys"] = filled;
}
BENCHMARK(BM_CustomSdpa)
    ->ArgNames({"S", "start", "cold"})
    ->Args({64, 0, 0})
    ->Args({1, 64, 0})
    ->Args({1, 127, 0})
    ->Args({1, 64, 1})
    ->Args({1, 127, 1})
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ember::kernels

BENCHMARK_MAIN();
