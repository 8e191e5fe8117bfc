// Winograd F(2x2,3x3) and F(4x4,3x3) (backends/xnnpack/runtime/winograd_conv.h transforms, the
// n² GEMMs as one XNNPACK batch-matrix-multiply operator with its filter packed at creation,
// tiles in blocks whose transformed input and GEMM output take at most 768 KB) against
// XNNPACK's own convolution operator, on the stride-1 3x3 layers of the peer-suite models
// (ResNet-18 at 112, narrow ResNet and SqueezeNet 1.1 at 64), one thread:
//   bazel run -c opt //benchmarks:xnnpack_winograd_benchmark -- --benchmark_repetitions=3
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// Arguments: layer, m (0 = direct, 2, 4). BM_Conv3x3Memory sweeps 96 MB before each timed run
// and re-reads the input, so weights and scratch come from memory (ResNet-18's case: 47 MB of
// weights); BM_Conv3x3 runs with warm caches. Times are the thread's CPU time of the run.
// Counters:
// GMAC/s of the direct form, and rel_err (max |Winograd - direct| over max |direct|); the run
// fails if it exceeds 1e-4. Skipped where winograd_available() is false (no AVX-512F).
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <ctime>
#include <random>
#include <vector>

#include "backends/xnnpack/runtime/winograd_conv.h"

namespace {

using ember::backends::xnnpack::winograd_available;
using ember::backends::xnnpack::winograd_input_transform;
using ember::backends::xnnpack::winograd_output_transform;
using ember::backends::xnnpack::winograd_tiles;
using ember::backends::xnnpack::winograd_transform_filter;

struct Layer {
  const char* name;
  uint32_t hw, ci, co;
};

constexpr Layer kLayers[] = {
    {"resnet18_l1_64x28", 28, 64, 64},          {"resnet18_l2_128x14", 14, 128, 128},
    {"resnet18_l3_256x7", 7, 256, 256},         {"resnet18_l4_512x4", 4, 512, 512},
    {"narrow_resnet_32x32", 32, 32, 32},        {"narrow_resnet_64x16", 16, 64, 64},
    {"narrow_resnet_128x8", 8, 128, 128},       {"squeezenet_fire2_16to64x15", 15, 16, 64},
    {"squeezenet_fire4_32to128x7", 7, 32, 128}, {"squeezenet_fire9_64to256x3", 3, 64, 256},
    {"densenet_b1_128to32x16", 16, 128, 32},    {"densenet_b2_128to32x8", 8, 128, 32},
    {"densenet_b3_128to32x4", 4, 128, 32},      {"densenet_b4_128to32x2", 2, 128, 32},
};

// This thread's CPU time: the timed region only (not the sweep), and not the time other
// processes of a loaded machine take from it.
double now() {
  timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return double(t.tv_sec) + 1e-9 * double(t.tv_nsec);
}

// Evicts caches (96 MB, more than L3), then reads the input back: the previous layer wrote it.
void sweep(const std::vector<float>& input) {
  static std::vector<char> junk(96 << 20, 1);
  for (size_t i = 0; i < junk.size(); i += 64) junk[i]++;
  float s = 0;
  for (size_t i = 0; i < input.size(); i += 16) s += input[i];
  benchmark::DoNotOptimize(s);
}

class Winograd {
 public:
  Winograd(uint32_t m, const Layer& l, const std::vector<float>& filter, const float* bias)
      : m_(m), l_(l), bias_(bias) {
    const uint32_t n = m + 2;
    std::vector<float> u(size_t{n} * n * l.ci * l.co);
    winograd_transform_filter(m, filter.data(), l.ci, l.co, u.data());
    tiles_ = winograd_tiles(m, l.hw, l.hw);
    const uint64_t per_tile = uint64_t{n} * n * (l.ci + l.co) * sizeof(float);
    const uint64_t fit = std::max<uint64_t>(1, std::min<uint64_t>(tiles_, (768 << 10) / per_tile));
    const uint64_t blocks = (tiles_ + fit - 1) / fit;
    block_ = static_cast<uint32_t>((tiles_ + blocks - 1) / blocks);
    v_.resize(size_t{n} * n * block_ * l.ci);
    mo_.resize(size_t{n} * n * block_ * l.co);
    size_t batch = size_t{n} * n, ws = 0, wa = 0;
    ok_ = xnn_create_batch_matrix_multiply_nc_f32_const_weights(batch, l.ci, l.co, u.data(), 0,
                                                                &op_) == xnn_status_success &&
          xnn_reshape_batch_matrix_multiply_nc_f32(op_, 1, &batch, &batch, block_, l.ci, l.co, &ws,
                                                   &wa, nullptr) == xnn_status_success &&
          ws == 0 &&
          xnn_setup_batch_matrix_multiply_nc_f32(op_, nullptr, v_.data(), nullptr, mo_.data()) ==
              xnn_status_success;
  }
  ~Winograd() { xnn_delete_operator(op_); }
  bool ok() const { return ok_; }

  void run(const float* x, float* y) {
    for (uint64_t t0 = 0; t0 < tiles_; t0 += block_) {
      winograd_input_transform(m_, x, l_.hw, l_.hw, l_.ci, 1, t0, block_, v_.data());
      xnn_run_operator(op_, nullptr);
      winograd_output_transform(m_, mo_.data(), bias_, -INFINITY, INFINITY, l_.hw, l_.hw, l_.co,
                                l_.co, t0, block_, y);
    }
  }

 private:
  uint32_t m_;
  Layer l_;
  const float* bias_;
  uint64_t tiles_ = 0;
  uint32_t block_ = 1;
  std::vector<float> v_, mo_;
  xnn_operator_t op_ = nullptr;
  bool ok_ = false;
};

void conv3x3(benchmark::State& state, bool memory) {
  const Layer& l = kLayers[state.range(0)];
  const uint32_t m = static_cast<uint32_t>(state.range(1));
  if (m != 0 && !winograd_available()) {
    state.SkipWithError("no AVX-512F: the Winograd transforms are not built for this CPU");
    return;
  }
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  std::mt19937 rng(7);
  std::normal_distribution<float> nd(0.f, 1.f);
  std::vector<float> x(size_t{l.hw} * l.hw * l.ci), f(size_t{l.co} * 9 * l.ci), b(l.co);
  for (float& e : x) e = nd(rng);
  for (float& e : f) e = nd(rng) / std::sqrt(9.f * l.ci);
  for (float& e : b) e = 0.1f * nd(rng);
  std::vector<float> direct(size_t{l.hw} * l.hw * l.co), y(direct.size());
  xnn_operator_t conv = nullptr;
  size_t ws = 0, wa = 0;
  if (xnn_create_convolution2d_nhwc_f32(1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, l.ci, l.co, l.ci, l.co,
                                        f.data(), b.data(), -INFINITY, INFINITY, 0, nullptr,
                                        nullptr, &conv) != xnn_status_success ||
      xnn_reshape_convolution2d_nhwc_f32(conv, 1, l.hw, l.hw, &ws, &wa, nullptr, nullptr,
                                         nullptr) != xnn_status_success ||
      ws != 0 ||
      xnn_setup_convolution2d_nhwc_f32(conv, nullptr, x.data(), direct.data()) !=
          xnn_status_success ||
      xnn_run_operator(conv, nullptr) != xnn_status_success) {
    state.SkipWithError("XNNPACK convolution setup failed");
    xnn_delete_operator(conv);
    return;
  }
  if (m == 0) {
    for (auto _ : state) {
      if (memory) sweep(x);
      const double t = now();
      xnn_run_operator(conv, nullptr);
      state.SetIterationTime(now() - t);
    }
  } else {
    Winograd w(m, l, f, b.data());
    if (!w.ok()) {
      state.SkipWithError("XNNPACK batch matrix multiply setup failed");
      xnn_delete_operator(conv);
      return;
    }
    w.run(x.data(), y.data());
    double scale = 0, err = 0;
    for (size_t i = 0; i < y.size(); ++i) {
      scale = std::max(scale, double{std::fabs(direct[i])});
      err = std::max(err, double{std::fabs(y[i] - direct[i])});
    }
    state.counters["rel_err"] = err / scale;
    if (!(err <= 1e-4 * scale)) {
      state.SkipWithError("Winograd output differs from XNNPACK's convolution");
      xnn_delete_operator(conv);
      return;
    }
    for (auto _ : state) {
      if (memory) sweep(x);
      const double t = now();
      w.run(x.data(), y.data());
      state.SetIterationTime(now() - t);
    }
  }
  const double macs = 9.0 * l.hw * l.hw * l.ci * l.co;
  state.counters["GMAC/s"] =
      benchmark::Counter(macs * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(l.name);
  xnn_delete_operator(conv);
}

void BM_Conv3x3(benchmark::State& state) { conv3x3(state, false); }
void BM_Conv3x3Memory(benchmark::State& state) { conv3x3(state, true); }

void Args(benchmark::internal::Benchmark* b) {
  for (int64_t l = 0; l < int64_t(sizeof(kLayers) / sizeof(kLayers[0])); ++l) {
    for (int64_t m : {0, 2, 4}) b->Args({l, m});
  }
}

BENCHMARK(BM_Conv3x3)->Apply(Args)->ArgNames({"layer", "m"})->UseManualTime();
// Each iteration sweeps 96 MB (~3 ms): a fixed count keeps the run short.
BENCHMARK(BM_Conv3x3Memory)->Apply(Args)->ArgNames({"layer", "m"})->UseManualTime()->Iterations(30);

}  // namespace

BENCHMARK_MAIN();
