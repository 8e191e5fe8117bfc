// The same small graphs run two ways, single-threaded: built directly with
// XNNPACK's subgraph API (define -> create runtime -> setup -> invoke), and as an
// XNNGraph blob through Ember's XnnpackBackend (init once, execute per
// iteration, binding EValue tensors). The gap is the delegate's per-call cost
// (argument checks, plan lookup, input copy into padded memory). Graphs mirror
// the upstream fixtures: lin129 (FC 129->64, batch 1), stress_mlp (5 x FC
// 256x256 + ReLU, batch 32), conv (3x3 conv 3->8 over 16x16, NHWC), and conv
// with the NCHW<->NHWC transposes the exporter inserts (run by the delegate's
// own transpose kernel, since this XNNPACK has no transpose node).
//   bazel run -c opt //benchmarks:xnnpack_direct_benchmark
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <cmath>
#include <limits>
#include <memory>
#include <vector>

#include "backends/xnnpack/runtime/test_graphs.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"

namespace {

using ember::backends::xnnpack::testing::GraphBuilder;
using ember::backends::xnnpack::testing::HeapTensor;
using ember::backends::xnnpack::testing::kIn;
using ember::backends::xnnpack::testing::kOut;
using fb_xnnpack::XNodeUnion;
constexpr float kInf = std::numeric_limits<float>::infinity();

std::vector<float> pseudo_random(size_t n, float seed) {
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = 0.05f * std::sin(seed + 0.37f * float(i));
  return v;
}

// ---- A graph description both paths are built from. ----
struct Fc { uint32_t in, out; bool relu; };
struct Spec {
  std::vector<uint32_t> input_dims, output_dims;
  std::vector<Fc> fcs;       // chain of fully connected layers, or
  bool conv = false;         // one 3x3 conv (NHWC 16x16, 3 -> 8, pad 1)
  bool nchw = false;         // conv with NCHW transposes around it
};

Spec lin129() { return {{1, 129}, {1, 64}, {{129, 64, false}}}; }
Spec mlp() {
  Spec s{{32, 256}, {32, 256}, {}};
  for (int i = 0; i < 5; ++i) s.fcs.push_back({256, 256, true});
  return s;
}
Spec conv(bool nchw) {
  Spec s;
  s.input_dims = nchw ? std::vector<uint32_t>{1, 3, 16, 16} : std::vector<uint32_t>{1, 16, 16, 3};
  s.output_dims = nchw ? std::vector<uint32_t>{1, 8, 16, 16} : std::vector<uint32_t>{1, 16, 16, 8};
  s.conv = true;
  s.nchw = nchw;
  return s;
}

// ---- Direct XNNPACK subgraph. ----
struct Direct {
  std::vector<std::vector<float>> weights;
  xnn_runtime_t runtime = nullptr;
  ~Direct() { if (runtime) xnn_delete_runtime(runtime); }
};

uint32_t define(xnn_subgraph_t sg, std::vector<size_t> dims, const void* data, uint32_t ext,
                uint32_t flags) {
  uint32_t id = XNN_INVALID_VALUE_ID;
  xnn_define_tensor_value(sg, xnn_datatype_fp32, dims.size(), dims.data(), data, ext, flags, &id);
  return id;
}

bool build_direct(const Spec& s, Direct* d) {
  xnn_subgraph_t sg = nullptr;
  if (xnn_create_subgraph(2, 0, &sg) != xnn_status_success) return false;
  std::vector<size_t> in_dims(s.input_dims.begin(), s.input_dims.end());
  std::vector<size_t> out_dims(s.output_dims.begin(), s.output_dims.end());
  uint32_t cur = define(sg, in_dims, nullptr, 0, XNN_VALUE_FLAG_EXTERNAL_INPUT);
  const uint32_t out = define(sg, out_dims, nullptr, 1, XNN_VALUE_FLAG_EXTERNAL_OUTPUT);
  bool ok = true;
  if (s.conv) {
    d->weights.push_back(pseudo_random(8 * 3 * 3 * 3, 1.f));
    d->weights.push_back(pseudo_random(8, 2.f));
    const uint32_t w = define(sg, {8, 3, 3, 3}, d->weights[0].data(), XNN_INVALID_VALUE_ID, 0);
    const uint32_t b = define(sg, {8}, d->weights[1].data(), XNN_INVALID_VALUE_ID, 0);
    ok &= xnn_define_convolution_2d(sg, 1, 1, 1, 1, 3, 3, 1, 1, 1, 1, 1, 3, 8, -kInf, kInf, cur,
                                    w, b, out, 0) == xnn_status_success;
  }
  for (size_t i = 0; i < s.fcs.size(); ++i) {
    const Fc& fc = s.fcs[i];
    d->weights.push_back(pseudo_random(size_t(fc.in) * fc.out, float(i)));
    d->weights.push_back(pseudo_random(fc.out, float(i) + 0.5f));
    const uint32_t w = define(sg, {fc.out, fc.in}, d->weights[d->weights.size() - 2].data(),
                              XNN_INVALID_VALUE_ID, 0);
    const uint32_t b = define(sg, {fc.out}, d->weights.back().data(), XNN_INVALID_VALUE_ID, 0);
    const bool last = i + 1 == s.fcs.size();
    const uint32_t next = last ? out : define(sg, {in_dims[0], fc.out}, nullptr, XNN_INVALID_VALUE_ID, 0);
    ok &= xnn_define_fully_connected(sg, fc.relu ? 0.f : -kInf, kInf, cur, w, b, next, 0) ==
          xnn_status_success;
    cur = next;
  }
  ok &= ok && xnn_create_runtime_v2(sg, nullptr, 0, &d->runtime) == xnn_status_success;
  ok &= ok && xnn_reshape_runtime(d->runtime) == xnn_status_success;
  xnn_delete_subgraph(sg);
  return ok;
}

// ---- The same graph as an XNNGraph blob. ----
std::vector<uint8_t> build_blob(const Spec& s) {
  GraphBuilder g;
  uint32_t cur = g.tensor(s.input_dims, kIn, 0);
  const uint32_t out = g.tensor(s.output_dims, kOut, 1);
  if (s.conv) {
    const uint32_t w = g.constant({8, 3, 3, 3}, pseudo_random(8 * 27, 1.f));
    const uint32_t b = g.constant({8}, pseudo_random(8, 2.f));
    if (s.nchw) {
      const uint32_t nhwc = g.tensor({1, 16, 16, 3}), conv_out = g.tensor({1, 16, 16, 8});
      g.transpose({0, 2, 3, 1}, cur, nhwc);
      g.conv2d(3, 1, 3, 8, nhwc, w, b, conv_out);
      g.transpose({0, 3, 1, 2}, conv_out, out);
    } else {
      g.conv2d(3, 1, 3, 8, cur, w, b, out);
    }
  }
  for (size_t i = 0; i < s.fcs.size(); ++i) {
    const Fc& fc = s.fcs[i];
    const uint32_t w = g.constant({fc.out, fc.in}, pseudo_random(size_t(fc.in) * fc.out, float(i)));
    const uint32_t b = g.constant({fc.out}, pseudo_random(fc.out, float(i) + 0.5f));
    const bool last = i + 1 == s.fcs.size();
    const uint32_t next = last ? out : g.tensor({s.input_dims[0], fc.out});
    g.fully_connected(cur, w, b, next);
    if (fc.relu) g.clamp_last(0.f, kInf);
    cur = next;
  }
  return g.blob();
}

std::vector<int32_t> to_sizes(const std::vector<uint32_t>& d) { return {d.begin(), d.end()}; }

void run_direct(benchmark::State& state, const Spec& s) {
  xnn_initialize(nullptr);
  Direct d;
  if (!build_direct(s, &d)) return state.SkipWithError("direct build failed");
  HeapTensor in(to_sizes(s.input_dims)), out(to_sizes(s.output_dims));
  const xnn_external_value ext[] = {{0, in.data.data()}, {1, out.data.data()}};
  for (auto _ : state) {
    xnn_setup_runtime_v2(d.runtime, 2, ext);
    xnn_invoke_runtime(d.runtime);
    benchmark::DoNotOptimize(out.data.data());
  }
}

void run_ember(benchmark::State& state, const Spec& s) {
  auto& backend = ember::backends::xnnpack::backend_instance();
  const std::vector<uint8_t> blob = build_blob(s);
  std::vector<uint8_t> arena(1 << 20);
  ember::runtime::MemoryAllocator allocator(arena.data(), arena.size());
  ember::runtime::BackendInitContext init_ctx(&allocator, "forward", nullptr);
  ember::runtime::FreeableBuffer buffer(blob.data(), blob.size());
  auto handle = backend.init(init_ctx, &buffer, {});
  if (!handle.ok()) return state.SkipWithError("delegate init failed");
  HeapTensor in(to_sizes(s.input_dims)), out(to_sizes(s.output_dims));
  ember::runtime::EValue* args[] = {&in.value, &out.value};
  ember::runtime::BackendExecutionContext ctx(nullptr, "forward", nullptr);
  for (auto _ : state) {
    if (backend.execute(ctx, handle.get(), {args, 2}) != ember::runtime::Error::Ok) {
      state.SkipWithError("execute failed");
      break;
    }
    benchmark::DoNotOptimize(out.data.data());
  }
  backend.destroy(handle.get());
}

void BM_Direct_Lin129(benchmark::State& s) { run_direct(s, lin129()); }
void BM_Ember_Lin129(benchmark::State& s) { run_ember(s, lin129()); }
void BM_Direct_Mlp5x256(benchmark::State& s) { run_direct(s, mlp()); }
void BM_Ember_Mlp5x256(benchmark::State& s) { run_ember(s, mlp()); }
void BM_Direct_Conv3x3(benchmark::State& s) { run_direct(s, conv(false)); }
void BM_Ember_Conv3x3(benchmark::State& s) { run_ember(s, conv(false)); }
void BM_Ember_Conv3x3Nchw(benchmark::State& s) { run_ember(s, conv(true)); }

BENCHMARK(BM_Direct_Lin129);
BENCHMARK(BM_Ember_Lin129);
BENCHMARK(BM_Direct_Mlp5x256);
BENCHMARK(BM_Ember_Mlp5x256);
BENCHMARK(BM_Direct_Conv3x3);
BENCHMARK(BM_Ember_Conv3x3);
BENCHMARK(BM_Ember_Conv3x3Nchw);

}  // namespace

BENCHMARK_MAIN();
