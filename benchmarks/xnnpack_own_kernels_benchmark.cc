// The delegate's own kernels for layers XNNPACK 2024-11 runs with wasted tile work, against
// XNNPACK's operators on the same layers, one thread:
//   bazel run -c opt //benchmarks:xnnpack_own_kernels_benchmark -- --benchmark_repetitions=3
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// BM_Grouped: grouped convolutions with groups of 16 channels (RegNetX-400MF at 64x64, its 3x3
// layers): backends/xnnpack/runtime/grouped16_conv.h (16 outputs per vector, the filter read
// once, its own bytes) against XNNPACK's convolution operator (groups of 16 padded to its
// 32-wide tile). Arguments: layer, form (0 = XNNPACK, 1 = grouped16).
// BM_FewRows: 1x1 convolutions on 2x2-4x4 maps as GEMMs of 4-16 rows: few_rows_gemm.h (up to
// 12 rows in one pass over the filter; 16 rows as two passes of 8) against XNNPACK's
// fully-connected operator (7-row tiles). Arguments: layer, form (0 = XNNPACK, 1 = few rows).
// BM_Grouped's Each run goes through `copies`
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

#include "backends/xnnpack/runtime/few_rows_gemm.h"
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

struct GemmLayer {
  const char* name;
  uint32_t m, k, n, copies;
};

constexpr GemmLayer kGemmLayers[] = {
    {"squeezenet_classifier_half_9x256x1000", 9, 256, 1000, 2},
    {"squeezenet_classifier_9x512x1000", 9, 512, 1000, 1},
    {"googlenet_5b_1x1_16x832x384", 16, 832, 384, 2},
    {"googlenet_4e_1x1_16x528x256", 16, 528, 256, 2},
    {"regnetx_stage3_1x1_16x160x160", 16, 160, 160, 13},
    {"regnetx_stage4_1x1_4x400x400", 4, 400, 400, 23},
};

void BM_FewRows(benchmark::State& state) {
  using ember::backends::xnnpack::few_rows_gemm;
  using ember::backends::xnnpack::few_rows_packed_floats;
  using ember::backends::xnnpack::pack_few_rows_filter;
  const GemmLayer& L = kGemmLayers[state.range(0)];
  const bool ours = state.range(1) == 1;
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  std::mt19937 rng(11);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> x(size_t{L.m} * L.k + 16), bias(L.n), out(size_t{L.m} * L.n), ref(size_t{L.m} * L.n);
  for (float& v : x) v = u(rng);
  for (float& v : bias) v = u(rng);
  std::vector<std::vector<float>> w(L.copies), packed(L.copies);
  std::vector<xnn_operator_t> ops(L.copies, nullptr);
  for (uint32_t c = 0; c < L.copies; ++c) {
    w[c].resize(size_t{L.n} * L.k);
    for (float& v : w[c]) v = u(rng);
    packed[c].resize(few_rows_packed_floats(L.n, L.k));
    pack_few_rows_filter(w[c].data(), L.n, L.k, packed[c].data());
    if (xnn_create_fully_connected_nc_f32(L.k, L.n, L.k, L.n, w[c].data(), bias.data(), 0.f, INFINITY, 0, nullptr,
                                          nullptr, &ops[c]) != xnn_status_success ||
        xnn_reshape_fully_connected_nc_f32(ops[c], L.m, nullptr) != xnn_status_success ||
        xnn_setup_fully_connected_nc_f32(ops[c], x.data(), out.data()) != xnn_status_success) {
      state.SkipWithError("XNNPACK fully connected failed");
      return;
    }
  }
  // Rows per pass: all of them up to 12, else equal passes of at most 12.
  const uint32_t passes = (L.m + 11) / 12, rows = (L.m + passes - 1) / passes;
  auto run_ours = [&](uint32_t c) {
    for (uint32_t r0 = 0; r0 < L.m; r0 += rows) {
      const uint32_t mr = std::min(rows, L.m - r0);
      few_rows_gemm(mr, L.n, L.k, x.data() + size_t{r0} * L.k, L.k, packed[c].data(), bias.data(), 0.f, INFINITY,
                    out.data() + size_t{r0} * L.n, L.n);
    }
  };
  xnn_run_operator(ops[0], nullptr);
  ref = out;
  run_ours(0);
  double err = 0, mag = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    err = std::max(err, double(std::fabs(out[i] - ref[i])));
    mag = std::max(mag, double(std::fabs(ref[i])));
  }
  if (err > 1e-5 * mag) {
    state.SkipWithError("few_rows_gemm disagrees with XNNPACK");
    return;
  }
  uint32_t c = 0;
  for (auto _ : state) {
    const double t0 = now();
    for (uint32_t i = 0; i < L.copies; ++i, c = (c + 1) % L.copies) {
      if (ours) {
        run_ours(c);
      } else {
        xnn_run_operator(ops[c], nullptr);
      }
    }
    state.SetIterationTime((now() - t0) / L.copies);
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["rel_err"] = err / mag;
  state.counters["GMAC/s"] = benchmark::Counter(double(L.m) * L.k * L.n * 1e-9,
                                                benchmark::Counter::kIsIterationInvariantRate);
  for (xnn_operator_t op : ops) xnn_delete_operator(op);
  state.SetLabel(L.name);
}

void GemmArgs(benchmark::internal::Benchmark* b) {
  for (int l = 0; l < int(sizeof(kGemmLayers) / sizeof(kGemmLayers[0])); ++l) {
    for (int form : {0, 1}) b->Args({l, form});
  }
}

BENCHMARK(BM_FewRows)->Apply(GemmArgs)->UseManualTime()->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
