// Portable kernel benchmarks at real model shapes (MobileNetV2, ResNet-18,
// a transformer block), single thread unless the name says otherwise:
//   bazel run -c opt //benchmarks:kernels_benchmark
// Counters: FLOP/s (2 per multiply-add) for conv and matmul, bytes/s of
// compulsory traffic (inputs read once, output written once) for the others.
// Machine limits for context: 117 GFLOP/s per core, 21-25 GB/s DRAM.
#include <benchmark/benchmark.h>

#include <memory>
#include <vector>

#include "kernels/portable/ops/activation.h"
#include "kernels/portable/ops/arith.h"
#include "kernels/portable/ops/conv.h"
#include "kernels/portable/ops/matmul.h"
#include "kernels/portable/ops/norm.h"
#include "kernels/portable/ops/pool.h"
#include "kernels/test/test_tensor.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"

namespace ember::kernels {
namespace {

namespace portable = ember::kernels::portable;
using runtime::ScalarType;
using testing::TestTensor;

std::unique_ptr<TestTensor> random_tensor(std::vector<int32_t> sizes,
                                          std::vector<uint8_t> order = {}) {
  auto t = std::make_unique<TestTensor>(ScalarType::Float, std::move(sizes), std::move(order));
  float* p = t->t().mutable_data_ptr<float>();
  uint32_t s = 12345;
  for (size_t i = 0; i < t->t().numel(); ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = float(s >> 8) / float(1 << 24) - 0.5f;
  }
  return t;
}

// Conv: args = {c_in, c_out, h (= w), kernel, stride, groups, channels_last, threads}.
void BM_Conv(benchmark::State& state) {
  const int32_t ci = int32_t(state.range(0)), co = int32_t(state.range(1)),
                hw = int32_t(state.range(2)), k = int32_t(state.range(3)),
                s = int32_t(state.range(4)), g = int32_t(state.range(5));
  const bool cl = state.range(6) != 0;
  const std::vector<uint8_t> order = cl ? std::vector<uint8_t>{0, 2, 3, 1} : std::vector<uint8_t>{};
  const int32_t pad = k / 2, ohw = (hw + 2 * pad - k) / s + 1;
  auto in = random_tensor({1, ci, hw, hw}, order);
  auto w = random_tensor({co, ci / g, k, k});
  auto b = random_tensor({co});
  TestTensor out(ScalarType::Float, {1, co, ohw, ohw}, order);
  const int64_t stride[2] = {s, s}, padding[2] = {pad, pad}, dil[2] = {1, 1}, opad[2] = {0, 0};
  std::unique_ptr<runtime::PthreadpoolThreadPool> pool;
  if (state.range(7) > 1) pool = std::make_unique<runtime::PthreadpoolThreadPool>(state.range(7));
  runtime::KernelRuntimeContext ctx(nullptr, pool.get());
  for (auto _ : state) {
    portable::convolution_out(ctx, in->t(), w->t(), &b->t(), {stride, 2}, {padding, 2}, {dil, 2},
                              false, {opad, 2}, g, out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  const double flops = 2.0 * co * (ci / g) * k * k * ohw * ohw;
  state.counters["FLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
  if (ctx.failure_state() != runtime::Error::Ok) state.SkipWithError("kernel failed");
}
// ResNet-18 layer1 3x3 conv; layer3 3x3 conv.
BENCHMARK(BM_Conv)->Name("conv3x3/resnet18_l1_64x56x56")->Args({64, 64, 56, 3, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv3x3/resnet18_l3_256x14x14")->Args({256, 256, 14, 3, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv3x3/resnet18_l1_64x56x56_nhwc")->Args({64, 64, 56, 3, 1, 1, 1, 1});
BENCHMARK(BM_Conv)->Name("conv3x3/resnet18_l1_64x56x56_2threads")->Args({64, 64, 56, 3, 1, 1, 0, 2});
// MobileNetV2 block 3 expand (24 -> 144) and project (144 -> 24) at 56x56; last 1x1 (320 -> 1280).
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_expand_24to144x56x56")->Args({24, 144, 56, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_project_144to24x56x56")->Args({144, 24, 56, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_320to1280x7x7")->Args({320, 1280, 7, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_expand_24to144x56x56_nhwc")->Args({24, 144, 56, 1, 1, 1, 1, 1});
// MobileNetV2 depthwise 3x3: 144 channels at 56x56 (stride 1) and 96 at 112 -> 56 (stride 2).
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_144x56x56")->Args({144, 144, 56, 3, 1, 144, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_96x112x112_s2")->Args({96, 96, 112, 3, 2, 96, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_144x56x56_nhwc")->Args({144, 144, 56, 3, 1, 144, 1, 1});
// MobileNetV2 at a 64x64 input (the xnnpack_aot_benchmark fixture): small planes, many channels.
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_64in_32x32x32")->Args({32, 32, 32, 3, 1, 32, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_64in_144x16x16")->Args({144, 144, 16, 3, 1, 144, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_64in_96x32x32_s2")->Args({96, 96, 32, 3, 2, 96, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_64in_384x4x4")->Args({384, 384, 4, 3, 1, 384, 0, 1});
BENCHMARK(BM_Conv)->Name("dwconv3x3/mbv2_64in_960x2x2")->Args({960, 960, 2, 3, 1, 960, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_16to96x32x32")->Args({16, 96, 32, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_24to144x16x16")->Args({24, 144, 16, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_96to576x4x4")->Args({96, 576, 4, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_576to96x4x4")->Args({576, 96, 4, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_160to960x2x2")->Args({160, 960, 2, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_960to160x2x2")->Args({960, 160, 2, 1, 1, 1, 0, 1});
BENCHMARK(BM_Conv)->Name("conv1x1/mbv2_64in_320to1280x2x2")->Args({320, 1280, 2, 1, 1, 1, 0, 1});

// mm: {m, k, n}.
void BM_Matmul(benchmark::State& state) {
  const int32_t m = int32_t(state.range(0)), k = int32_t(state.range(1)),
                n = int32_t(state.range(2));
  auto a = random_tensor({m, k});
  auto b = random_tensor({k, n});
  TestTensor out(ScalarType::Float, {m, n});
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    portable::mm_out(ctx, a->t(), b->t(), out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.counters["FLOP/s"] =
      benchmark::Counter(2.0 * m * k * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Matmul)->Name("matmul/square_512")->Args({512, 512, 512});
BENCHMARK(BM_Matmul)->Name("matmul/bert_ffn_128x768x3072")->Args({128, 768, 3072});
BENCHMARK(BM_Matmul)->Name("matmul/resnet18_fc_1x512x1000")->Args({1, 512, 1000});

void BM_Softmax(benchmark::State& state) {
  const int32_t rows = int32_t(state.range(0)), cols = int32_t(state.range(1));
  auto in = random_tensor({rows, cols});
  TestTensor out(ScalarType::Float, {rows, cols});
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    portable::softmax_out(ctx, in->t(), 1, false, out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * rows * cols * 8);
}
BENCHMARK(BM_Softmax)->Name("softmax/attention_12x128x128")->Args({12 * 128, 128});
BENCHMARK(BM_Softmax)->Name("softmax/classifier_64x1000")->Args({64, 1000});

void BM_LayerNorm(benchmark::State& state) {
  const int32_t rows = int32_t(state.range(0)), cols = int32_t(state.range(1));
  auto in = random_tensor({rows, cols});
  auto w = random_tensor({cols});
  auto b = random_tensor({cols});
  TestTensor out(ScalarType::Float, {rows, cols}), mean(ScalarType::Float, {rows, 1}),
      rstd(ScalarType::Float, {rows, 1});
  runtime::KernelRuntimeContext ctx;
  const int64_t shape[1] = {cols};
  for (auto _ : state) {
    portable::layer_norm_out(ctx, in->t(), {shape, 1}, &w->t(), &b->t(), 1e-5, out.t(), mean.t(),
                             rstd.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * rows * cols * 8);
}
BENCHMARK(BM_LayerNorm)->Name("layer_norm/bert_128x768")->Args({128, 768});

// Large elementwise add (DRAM bound): {numel, broadcast}.
void BM_Add(benchmark::State& state) {
  const int32_t n = int32_t(state.range(0));
  const bool bcast = state.range(1) != 0;
  auto a = random_tensor({n / 4096, 4096});
  auto b = bcast ? random_tensor({1, 4096}) : random_tensor({n / 4096, 4096});
  TestTensor out(ScalarType::Float, {n / 4096, 4096});
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    portable::add_out(ctx, a->t(), b->t(), runtime::Scalar(int64_t(1)), out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetBytesProcessed(int64_t(state.iterations()) * n * 4 * (bcast ? 2 : 3));
}
BENCHMARK(BM_Add)->Name("add/16M_same_shape")->Args({1 << 24, 0});
BENCHMARK(BM_Add)->Name("add/16M_row_broadcast")->Args({1 << 24, 1});

}  // namespace
}  // namespace ember::kernels

BENCHMARK_MAIN();
