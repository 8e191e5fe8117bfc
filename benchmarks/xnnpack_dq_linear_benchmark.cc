// One linear layer through the XNNPACK delegate, fp32 weights vs dynamically quantized
// (qdint8 activations x qc8w / qc4w / qb4w-32 / -64 / -128 weights, backends/xnnpack/aot/dynamic_quant.h), at the
// shapes of a small LLM's MLP (576 -> 1536 and 1536 -> 576) and batch 1 and 64, 1 thread. The
// payloads are built by Ember's XnnpackGraphBuilder and run by XnnpackBackend (init once,
// execute per iteration), so the rows compare the operators, not the executor.
//   bazel run -c opt //benchmarks:xnnpack_dq_linear_benchmark
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "backends/xnnpack/aot/dynamic_quant.h"
#include "backends/xnnpack/aot/dq_linear_blob.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/memory_allocator.h"

namespace ember::backends::xnnpack {
namespace {

namespace fb = fb_xnnpack;

// scheme < 0: fp32 weights; else a WeightScheme with `block`. Empty when the weights cannot be
// quantized with that scheme (e.g. a block size that does not divide the input channels).
std::vector<uint8_t> linear_blob(uint32_t m, uint32_t k, uint32_t n, int scheme, uint32_t block) {
  const std::vector<float> w = pseudo_random(size_t(n) * k, 7);
  const std::vector<float> bias(n, 0.f);
  if (scheme < 0) {
    auto blob = dq_linear_blob(m, k, n, nullptr, w, bias);
    return blob.ok() ? blob.get() : std::vector<uint8_t>{};
  }
  auto q = quantize_weight(w.data(), n, k, WeightScheme(scheme), block);
  if (!q.ok()) return {};
  auto blob = dq_linear_blob(m, k, n, &q.get(), w, bias);
  return blob.ok() ? blob.get() : std::vector<uint8_t>{};
}

void BM_Linear(benchmark::State& state) {
  const uint32_t m = uint32_t(state.range(0)), k = uint32_t(state.range(1));
  const uint32_t n = uint32_t(state.range(2));
  const int scheme = int(state.range(3));
  const uint32_t block = uint32_t(state.range(4));
  const std::vector<uint8_t> blob = linear_blob(m, k, n, scheme, block);
  if (blob.empty()) {
    state.SkipWithError("weights cannot be quantized with this scheme");
    return;
  }
  std::vector<uint8_t> arena(1 << 24);
  runtime::MemoryAllocator allocator(arena.data(), arena.size());
  runtime::BackendInitContext ictx(&allocator, "forward", nullptr);
  runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto h = backend_instance().init(ictx, &buffer, {});
  if (!h.ok()) {
    state.SkipWithError("init failed");
    return;
  }
  std::vector<float> xv = pseudo_random(size_t(m) * k + 64, 3), yv(size_t(m) * n);
  int32_t sin[2] = {int32_t(m), int32_t(k)}, sout[2] = {int32_t(m), int32_t(n)}, st[2][2];
  uint8_t order[2] = {0, 1};
  runtime::Tensor tin(runtime::ScalarType::Float, 2, sin, order, st[0], xv.data());
  runtime::Tensor tout(runtime::ScalarType::Float, 2, sout, order, st[1], yv.data());
  runtime::EValue ein(&tin), eout(&tout);
  runtime::EValue* args[] = {&ein, &eout};
  runtime::BackendExecutionContext ectx(nullptr, "forward", nullptr);
  for (auto _ : state) {
    if (backend_instance().execute(ectx, h.get(), {args, 2}) != runtime::Error::Ok) {
      state.SkipWithError("execute failed");
      break;
    }
    benchmark::DoNotOptimize(yv.data());
  }
  backend_instance().destroy(h.get());
  state.counters["GMAC/s"] =
      benchmark::Counter(double(m) * k * n * state.iterations() / 1e9, benchmark::Counter::kIsRate);
}

void Shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"batch", "in", "out", "scheme", "block"});
  for (int64_t m : {1, 64}) {
    for (auto [k, n] : {std::pair<int64_t, int64_t>{576, 1536}, {1536, 576}}) {
      b->Args({m, k, n, -1, 0});  // fp32
      b->Args({m, k, n, int64_t(WeightScheme::Int8PerChannel), 0});
      b->Args({m, k, n, int64_t(WeightScheme::Int4PerChannel), 0});
      b->Args({m, k, n, int64_t(WeightScheme::Int4Blockwise), 32});
      b->Args({m, k, n, int64_t(WeightScheme::Int4Blockwise), 64});
      b->Args({m, k, n, int64_t(WeightScheme::Int4Blockwise), 128});  // skipped for 576 inputs
    }
  }
}
BENCHMARK(BM_Linear)->Apply(Shapes)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace ember::backends::xnnpack

BENCHMARK_MAIN();
