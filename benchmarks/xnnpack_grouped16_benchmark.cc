// Grouped convolutions with groups of 16 channels (RegNetX-400MF at 64x64, its 3x3 layers):
// backends/xnnpack/runtime/grouped16_conv.h (16 outputs per vector, the filter read once, its
// own bytes) against XNNPACK's convolution operator (f32, groups of 16 padded to its 32-wide
// tile), one thread:
//   bazel run -c opt //benchmarks:xnnpack_grouped16_benchmark -- --benchmark_repetitions=3
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// Arguments: layer, form (0 = XNNPACK, 1 = grouped16). Each run goes through `copies`
// distinct filters of the layer round-robin (as many as RegNetX has blocks of that shape, at
// least 4), so the filters come from L2/L3 as in the model rather than from L1. Times are the
// thread's CPU time per convolution. Counter rel_err: max |grouped16 - XNNPACK| over max
// |XNNPACK|; the run fails above 1e-5.
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>
#include <vector>

#include "backends/xnnpack/runtime/grouped16_conv.h"

namespace {

using ember::backends::xnnpack::grouped16_conv;
using ember::backends::xnnpack::Grouped16ConvShape;
using ember::backends::xnnpack::grouped16_packed_floats;
using ember::backends::xnnpack::pack_grouped16_filter;

struct Layer {
  const char* name;
  uint32_t hw, groups, stride, copies;
};

// RegNetX-400MF at 64x64: stage entries (stride 2) and the stages' 3x3 layers.
constexpr Layer kLayers[] = {
    {"stage1_entry_32x32x32_s2", 32, 2, 2, 4},  {"stage2_entry_16x16x64_s2", 16, 4, 2, 4},
    {"stage2_8x8x64", 8, 4, 1, 4},              {"stage3_entry_8x8x160_s2", 8, 10, 2, 4},
    {"stage3_4x4x160", 4, 10, 1, 6},            {"stage4_entry_4x4x400_s2", 4, 25, 2, 4},
    {"stage4_2x2x400", 2, 25, 1, 11},
};

double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

void BM_Grouped(benchmark::State& state) {
  const Layer& L = kLayers[state.range(0)];
  const bool ours = state.range(1) == 1;
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  Grouped16ConvShape s;
  s.in_h = s.in_w = L.hw;
  s.groups = L.groups;
  s.kernel_h = s.kernel_w = 3;
  s.stride_h = s.stride_w = L.stride;
  s.pad_top = s.pad_left = 1;
  s.out_h = s.out_w = (L.hw + 2 - 3) / L.stride + 1;
  const uint32_t C = L.groups * 16;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> in(size_t{L.hw} * L.hw * C + 16), bias(C);
  for (float& v : in) v = u(rng);
  for (float& v : bias) v = u(rng);
  const size_t out_n = size_t{s.out_h} * s.out_w * C;
  std::vector<std::vector<float>> filters(L.copies), packed(L.copies);
  std::vector<xnn_operator_t> ops(L.copies, nullptr);
  std::vector<float> out(out_n), ref(out_n);
  for (uint32_t k = 0; k < L.copies; ++k) {
    filters[k].resize(size_t{C} * 9 * 16);
    for (float& v : filters[k]) v = u(rng);
    packed[k].resize(grouped16_packed_floats(L.groups, 3, 3));
    pack_grouped16_filter(filters[k].data(), L.groups, 3, 3, packed[k].data());
    if (xnn_create_convolution2d_nhwc_f32(1, 1, 1, 1, 3, 3, L.stride, L.stride, 1, 1, L.groups, 16, 16, C, C,
                                          filters[k].data(), bias.data(), 0.f, INFINITY, 0, nullptr, nullptr,
                                          &ops[k]) != xnn_status_success) {
      state.SkipWithError("xnn_create_convolution2d_nhwc_f32 failed");
      return;
    }
    size_t ws = 0, wa = 0, oh = 0, ow = 0;
    if (xnn_reshape_convolution2d_nhwc_f32(ops[k], 1, L.hw, L.hw, &ws, &wa, &oh, &ow, nullptr) !=
            xnn_status_success ||
        ws != 0 || xnn_setup_convolution2d_nhwc_f32(ops[k], nullptr, in.data(), out.data()) != xnn_status_success) {
      state.SkipWithError("xnn reshape/setup failed");
      return;
    }
  }
  // Agreement on copy 0.
  xnn_run_operator(ops[0], nullptr);
  ref = out;
  grouped16_conv(s, in.data(), packed[0].data(), bias.data(), 0.f, INFINITY, out.data());
  double err = 0, mag = 0;
  for (size_t i = 0; i < out_n; ++i) {
    err = std::max(err, double(std::fabs(out[i] - ref[i])));
    mag = std::max(mag, double(std::fabs(ref[i])));
  }
  if (err > 1e-5 * mag) {
    state.SkipWithError("grouped16 disagrees with XNNPACK");
    return;
  }
  uint32_t k = 0;
  for (auto _ : state) {
    const double t0 = now();
    for (uint32_t i = 0; i < L.copies; ++i, k = (k + 1) % L.copies) {
      if (ours) {
        grouped16_conv(s, in.data(), packed[k].data(), bias.data(), 0.f, INFINITY, out.data());
      } else {
        xnn_run_operator(ops[k], nullptr);
      }
    }
    state.SetIterationTime((now() - t0) / L.copies);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["rel_err"] = err / mag;
  for (xnn_operator_t op : ops) xnn_delete_operator(op);
  state.SetLabel(L.name);
}

void Args(benchmark::internal::Benchmark* b) {
  for (int l = 0; l < int(sizeof(kLayers) / sizeof(kLayers[0])); ++l) {
    for (int form : {0, 1}) b->Args({l, form});
  }
}

BENCHMARK(BM_Grouped)->Apply(Args)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
