// The portable kernels with vectorised paths outside the dense conv/GEMM (depthwise conv,
// softmax, layer_norm, exp and the exp-based activations) at MobileNet / EfficientNet /
// transformer shapes, one thread, next to XNNPACK's own operators (operator API, NHWC as
// XNNPACK runs them in a delegated model) where Debian 12's XNNPACK has the op:
//   bazel run -c opt //benchmarks:portable_vector_benchmark
// Counters: items/s = output elements per second.
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <cmath>
#include <memory>
#include <vector>

#include "kernels/portable/ops/activation.h"
#include "kernels/portable/ops/conv.h"
#include "kernels/portable/ops/norm.h"
#include "kernels/portable/ops/pool.h"
#include "kernels/portable/ops/unary.h"
#include "kernels/test/test_tensor.h"

namespace ember::kernels {
namespace {

namespace portable = ember::kernels::portable;
using runtime::ScalarType;
using testing::TestTensor;

void fill_random(float* p, size_t n, float lo = -0.5f, float hi = 0.5f) {
  uint32_t s = 12345;
  for (size_t i = 0; i < n; ++i) {
    s = s * 1664525u + 1013904223u;
    p[i] = lo + (hi - lo) * (float(s >> 8) / float(1 << 24));
  }
}

std::unique_ptr<TestTensor> random_tensor(std::vector<int32_t> sizes, float lo = -0.5f,
                                          float hi = 0.5f) {
  auto t = std::make_unique<TestTensor>(ScalarType::Float, std::move(sizes));
  fill_random(t->t().mutable_data_ptr<float>(), t->t().numel(), lo, hi);
  return t;
}

bool xnn_ready() {
  static const bool ok = xnn_initialize(nullptr) == xnn_status_success;
  return ok;
}

// Depthwise conv: args = {channels, h (= w), kernel, stride}; padding k / 2.
void BM_DepthwisePortable(benchmark::State& state) {
  const int32_t c = int32_t(state.range(0)), hw = int32_t(state.range(1)),
                k = int32_t(state.range(2)), s = int32_t(state.range(3));
  const int32_t pad = k / 2, ohw = (hw + 2 * pad - k) / s + 1;
  auto in = random_tensor({1, c, hw, hw});
  auto w = random_tensor({c, 1, k, k});
  auto b = random_tensor({c});
  TestTensor out(ScalarType::Float, {1, c, ohw, ohw});
  const int64_t stride[2] = {s, s}, padding[2] = {pad, pad}, dil[2] = {1, 1}, opad[2] = {0, 0};
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    portable::convolution_out(ctx, in->t(), w->t(), &b->t(), {stride, 2}, {padding, 2}, {dil, 2},
                              false, {opad, 2}, c, out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * c * ohw * ohw);
}

void BM_DepthwiseXnnpack(benchmark::State& state) {
  const int32_t c = int32_t(state.range(0)), hw = int32_t(state.range(1)),
                k = int32_t(state.range(2)), s = int32_t(state.range(3));
  const int32_t pad = k / 2, ohw = (hw + 2 * pad - k) / s + 1;
  if (!xnn_ready()) return state.SkipWithError("xnn_initialize failed");
  std::vector<float> in(size_t(hw) * hw * c), w(size_t(k) * k * c), b(c),
      out(size_t(ohw) * ohw * c);
  fill_random(in.data(), in.size());
  fill_random(w.data(), w.size());
  fill_random(b.data(), b.size());
  xnn_operator_t op = nullptr;
  size_t ws_size = 0, ws_align = 1, oh = 0, ow = 0;
  std::vector<uint8_t> workspace;
  if (xnn_create_convolution2d_nhwc_f32(
          pad, pad, pad, pad, k, k, s, s, 1, 1, c, 1, 1, c, c, w.data(), b.data(), -INFINITY,
          INFINITY, XNN_FLAG_DEPTHWISE_CONVOLUTION, nullptr, nullptr, &op) != xnn_status_success ||
      xnn_reshape_convolution2d_nhwc_f32(op, 1, size_t(hw), size_t(hw), &ws_size, &ws_align, &oh,
                                         &ow, nullptr) != xnn_status_success ||
      (workspace.resize(ws_size + ws_align), false) ||
      xnn_setup_convolution2d_nhwc_f32(
          op, workspace.data() + (ws_align - uintptr_t(workspace.data()) % ws_align) % ws_align,
          in.data(), out.data()) != xnn_status_success) {
    return state.SkipWithError("XNNPACK depthwise setup failed");
  }
  for (auto _ : state) {
    xnn_run_operator(op, nullptr);
    benchmark::DoNotOptimize(out.data());
  }
  xnn_delete_operator(op);
  state.SetItemsProcessed(int64_t(state.iterations()) * c * ohw * ohw);
}

#define EMBER_DW_(name, c, hw, k, s)                                                    \
  BENCHMARK(BM_DepthwisePortable)->Name("dw/portable/" name)->Args({c, hw, k, s});       \
  BENCHMARK(BM_DepthwiseXnnpack)->Name("dw/xnnpack/" name)->Args({c, hw, k, s});
// MobileNetV2 at 224 and 64, MobileNetV3-small / EfficientNet-B0 / MNASNet at 64.
EMBER_DW_("3x3_s1_144x56x56", 144, 56, 3, 1)
EMBER_DW_("3x3_s2_96x112x112", 96, 112, 3, 2)
EMBER_DW_("3x3_s1_144x16x16", 144, 16, 3, 1)
EMBER_DW_("3x3_s2_96x32x32", 96, 32, 3, 2)
EMBER_DW_("3x3_s2_16x32x32", 16, 32, 3, 2)
EMBER_DW_("3x3_s1_384x4x4", 384, 4, 3, 1)
EMBER_DW_("3x3_s1_960x2x2", 960, 2, 3, 1)
EMBER_DW_("5x5_s2_96x8x8", 96, 8, 5, 2)
EMBER_DW_("5x5_s1_240x4x4", 240, 4, 5, 1)
EMBER_DW_("5x5_s1_576x2x2", 576, 2, 5, 1)
EMBER_DW_("5x5_s2_144x16x16", 144, 16, 5, 2)
EMBER_DW_("5x5_s1_480x4x4", 480, 4, 5, 1)

// Softmax over rows: {rows, cols}.
void BM_SoftmaxPortable(benchmark::State& state) {
  const int32_t rows = int32_t(state.range(0)), cols = int32_t(state.range(1));
  auto in = random_tensor({rows, cols}, -5.0f, 5.0f);
  TestTensor out(ScalarType::Float, {rows, cols});
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    portable::softmax_out(ctx, in->t(), 1, false, out.t());
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * rows * cols);
}

// XNNPACK's nc operators: {rows, cols, which}: 0 softmax, 1 sigmoid, 2 hardswish.
void BM_XnnpackNc(benchmark::State& state) {
  const int32_t rows = int32_t(state.range(0)), cols = int32_t(state.range(1));
  if (!xnn_ready()) return state.SkipWithError("xnn_initialize failed");
  std::vector<float> in(size_t(rows) * cols), out(in.size());
  fill_random(in.data(), in.size(), -5.0f, 5.0f);
  xnn_operator_t op = nullptr;
  xnn_status st = xnn_status_success;
  switch (state.range(2)) {
    case 0:
      st = xnn_create_softmax_nc_f32(0, &op);
      if (st == xnn_status_success)
        st = xnn_reshape_softmax_nc_f32(op, cols, cols, cols, rows, nullptr);
      if (st == xnn_status_success) st = xnn_setup_softmax_nc_f32(op, in.data(), out.data());
      break;
    case 1:
      st = xnn_create_unary_elementwise_nc(xnn_unary_sigmoid, xnn_datatype_fp32, xnn_datatype_fp32,
                                           nullptr, nullptr, nullptr, 0, &op);
      if (st == xnn_status_success)
        st = xnn_reshape_unary_elementwise_nc(op, rows, cols, cols, cols, nullptr);
      if (st == xnn_status_success) st = xnn_setup_unary_elementwise_nc(op, in.data(), out.data());
      break;
    default:
      st = xnn_create_unary_elementwise_nc(xnn_unary_hardswish, xnn_datatype_fp32,
                                           xnn_datatype_fp32, nullptr, nullptr, nullptr, 0, &op);
      if (st == xnn_status_success)
        st = xnn_reshape_unary_elementwise_nc(op, rows, cols, cols, cols, nullptr);
      if (st == xnn_status_success) st = xnn_setup_unary_elementwise_nc(op, in.data(), out.data());
      break;
  }
  if (st != xnn_status_success) return state.SkipWithError("XNNPACK setup failed");
  for (auto _ : state) {
    xnn_run_operator(op, nullptr);
    benchmark::DoNotOptimize(out.data());
  }
  xnn_delete_operator(op);
  state.SetItemsProcessed(int64_t(state.iterations()) * rows * cols);
}

BENCHMARK(BM_SoftmaxPortable)->Name("softmax/portable/attention_12x128x128")->Args({12 * 128, 128});
BENCHMARK(BM_XnnpackNc)->Name("softmax/xnnpack/attention_12x128x128")->Args({12 * 128, 128, 0});
BENCHMARK(BM_SoftmaxPortable)->Name("softmax/portable/classifier_64x1000")->Args({64, 1000});
BENCHMARK(BM_XnnpackNc)->Name("softmax/xnnpack/classifier_64x1000")->Args({64, 1000, 0});
BENCHMARK(BM_SoftmaxPortable)->Name("softmax/portable/tiny_16x8x8")->Args({16 * 8, 8});
BENCHMARK(BM_XnnpackNc)->Name("softmax/xnnpack/tiny_16x8x8")->Args({16 * 8, 8, 0});

void BM_LayerNormPortable(benchmark::State& state) {
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
  state.SetItemsProcessed(int64_t(state.iterations()) * rows * cols);
}
BENCHMARK(BM_LayerNormPortable)->Name("layer_norm/portable/bert_128x768")->Args({128, 768});
BENCHMARK(BM_LayerNormPortable)->Name("layer_norm/portable/small_16x32")->Args({16, 32});

// Elementwise activations over n floats: {n, which}: 0 exp, 1 sigmoid, 2 silu, 3 gelu,
// 4 hardswish.
void BM_ActivationPortable(benchmark::State& state) {
  const int32_t n = int32_t(state.range(0));
  auto in = random_tensor({n}, -5.0f, 5.0f);
  TestTensor out(ScalarType::Float, {n});
  runtime::KernelRuntimeContext ctx;
  for (auto _ : state) {
    switch (state.range(1)) {
      case 0: portable::exp_out(ctx, in->t(), out.t()); break;
      case 1: portable::sigmoid_out(ctx, in->t(), out.t()); break;
      case 2: portable::silu_out(ctx, in->t(), out.t()); break;
      case 3: portable::gelu_out(ctx, in->t(), "none", out.t()); break;
      default: portable::hardswish_out(ctx, in->t(), out.t()); break;
    }
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  state.SetItemsProcessed(int64_t(state.iterations()) * n);
}
constexpr int kAct = 96 * 32 * 32;  // an EfficientNet-B0 block at 64x64 input
BENCHMARK(BM_ActivationPortable)->Name("exp/portable/98304")->Args({kAct, 0});
BENCHMARK(BM_ActivationPortable)->Name("sigmoid/portable/98304")->Args({kAct, 1});
BENCHMARK(BM_XnnpackNc)->Name("sigmoid/xnnpack/98304")->Args({1, kAct, 1});
BENCHMARK(BM_ActivationPortable)->Name("silu/portable/98304")->Args({kAct, 2});
BENCHMARK(BM_ActivationPortable)->Name("gelu/portable/98304")->Args({kAct, 3});
BENCHMARK(BM_ActivationPortable)->Name("hardswish/portable/98304")->Args({kAct, 4});
BENCHMARK(BM_XnnpackNc)->Name("hardswish/xnnpack/98304")->Args({1, kAct, 2});

}  // namespace
}  // namespace ember::kernels

BENCHMARK_MAIN();
