// Dense and grouped convolutions and linear layers of the peer-suite CNNs (ResNet-18 at
// 112, SqueezeNet 1.1, the narrow ResNet, the tiny U-Net, RegNetX and MobileNetV3-small at
// 64, conv_bn_relu): Ember's portable convolution.out (NCHW, as the portable recipe runs
// it) against XNNPACK's own convolution operator used directly (NHWC, weights packed once at
// creation, which is what the delegate runs), same shapes, one thread, same process:
//   bazel run -c opt //benchmarks:conv_peer_benchmark -- --benchmark_repetitions=5
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
// Counter: FLOP/s (2 per multiply-add). Issue #20 item 3 asks portable <= 3x XNNPACK.
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <algorithm>
#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "kernels/portable/ops/conv.h"
#include "kernels/portable/ops/matmul.h"
#include "kernels/test/test_tensor.h"
#include "runtime/core/memory_allocator.h"

namespace ember::kernels {
namespace {

namespace portable = ember::kernels::portable;
using runtime::ScalarType;
using testing::TestTensor;

struct Shape {
  const char* name;
  int32_t ci, co, hw, k, stride, pad;
  int32_t groups = 1;
};

// Every distinct dense-conv shape class that dominates a peer model's portable profile.
constexpr Shape kShapes[] = {
    {"resnet18_stem_7x7s2_3to64x112", 3, 64, 112, 7, 2, 3},
    {"resnet18_l1_3x3_64x28", 64, 64, 28, 3, 1, 1},
    {"resnet18_l2_3x3s2_64to128x28", 64, 128, 28, 3, 2, 1},
    {"resnet18_l2_3x3_128x14", 128, 128, 14, 3, 1, 1},
    {"resnet18_l3_3x3_256x7", 256, 256, 7, 3, 1, 1},
    {"resnet18_l4_3x3_512x4", 512, 512, 4, 3, 1, 1},
    {"resnet18_l4_1x1s2_256to512x7", 256, 512, 7, 1, 2, 0},
    {"squeezenet_stem_3x3s2_3to64x64", 3, 64, 64, 3, 2, 0},
    {"squeezenet_fire2_3x3_16to64x15", 16, 64, 15, 3, 1, 1},
    {"squeezenet_fire2_1x1_16to64x15", 16, 64, 15, 1, 1, 0},
    {"squeezenet_fire4_3x3_32to128x7", 32, 128, 7, 3, 1, 1},
    {"squeezenet_fire9_3x3_64to256x3", 64, 256, 3, 3, 1, 1},
    {"squeezenet_fire9_1x1_512to64x3", 512, 64, 3, 1, 1, 0},
    {"squeezenet_head_1x1_512to1000x3", 512, 1000, 3, 1, 1, 0},
    {"narrow_resnet_3x3_16x64", 16, 16, 64, 3, 1, 1},
    {"narrow_resnet_3x3_128x8", 128, 128, 8, 3, 1, 1},
    {"unet_enc1_3x3_3to8x64", 3, 8, 64, 3, 1, 1},
    {"unet_enc1_3x3_8x64", 8, 8, 64, 3, 1, 1},
    {"unet_dec1_3x3_24to8x64", 24, 8, 64, 3, 1, 1},
    {"unet_mid_3x3_32x16", 32, 32, 16, 3, 1, 1},
    {"conv_bn_relu_3x3_3to8x12_n2", 3, 8, 12, 3, 1, 1},
    {"conv_bn_relu_3x3s2_8to16x12_n2", 8, 16, 12, 3, 2, 1},
    // RegNetX-400MF at 64x64 (group width 16) and MobileNetV3-small: 1x1 convs on 4x4, 2x2
    // and 1x1 planes (squeeze-excite) and grouped 3x3 convs. Their weights are read once per
    // run from beyond L2 in a whole model, so these rotate over weight copies (kWeightBytes).
    {"regnet_s4_1x1_400x2", 400, 400, 2, 1, 1, 0},
    {"regnet_s4_3x3g25_400x2", 400, 400, 2, 3, 1, 1, 25},
    {"regnet_s4_3x3s2g25_400x4", 400, 400, 4, 3, 2, 1, 25},
    {"regnet_s3_1x1_160x4", 160, 160, 4, 1, 1, 0},
    {"regnet_s3_3x3g10_160x4", 160, 160, 4, 3, 1, 1, 10},
    {"regnet_s2_3x3g4_64x8", 64, 64, 8, 3, 1, 1, 4},
    {"regnet_s1_3x3s2g2_32x32", 32, 32, 32, 3, 2, 1, 2},
    {"mnv3_1x1_96to576x2", 96, 576, 2, 1, 1, 0},
    {"mnv3_1x1_576to96x2", 576, 96, 2, 1, 1, 0},
    {"mnv3_se_1x1_576to144x1", 576, 144, 1, 1, 1, 0},
    {"mnv3_se_1x1_144to576x1", 144, 576, 1, 1, 1, 0},
};

// Weights rotated over copies of at least this many bytes in all (model-like: a whole
// model's weights do not stay in L2 between one layer's calls).
constexpr size_t kWeightBytes = size_t(8) << 20;

int32_t out_size(const Shape& s) { return (s.hw + 2 * s.pad - s.k) / s.stride + 1; }
int32_t batch(const Shape& s) { return s.name[0] == 'c' ? 2 : 1; }

std::vector<float> random_floats(size_t n, uint32_t seed) {
  std::vector<float> v(n);
  for (float& x : v) {
    seed = seed * 1664525u + 1013904223u;
    x = float(seed >> 8) / float(1 << 24) - 0.5f;
  }
  return v;
}

void set_flops(benchmark::State& state, const Shape& s) {
  const int32_t o = out_size(s);
  const double flops = 2.0 * batch(s) * s.co * (s.ci / s.groups) * s.k * s.k * o * o;
  state.counters["FLOP/s"] = benchmark::Counter(flops, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_Portable(benchmark::State& state, Shape s) {
  const int32_t o = out_size(s), n = batch(s);
  TestTensor in(ScalarType::Float, {n, s.ci, s.hw, s.hw});
  const size_t w_bytes = size_t(s.co) * (s.ci / s.groups) * s.k * s.k * sizeof(float);
  const size_t copies = std::max<size_t>(1, kWeightBytes / w_bytes);
  std::vector<std::unique_ptr<TestTensor>> ws;
  for (size_t i = 0; i < copies; ++i) {
    ws.push_back(std::make_unique<TestTensor>(
        ScalarType::Float, std::vector<int32_t>{s.co, s.ci / s.groups, s.k, s.k}));
  }
  TestTensor b(ScalarType::Float, {s.co});
  TestTensor out(ScalarType::Float, {n, s.co, o, o});
  std::vector<TestTensor*> filled = {&in, &b};
  for (auto& w : ws) filled.push_back(w.get());
  for (TestTensor* t : filled) {
    const auto v = random_floats(t->t().numel(), uint32_t(t->t().numel()));
    std::copy(v.begin(), v.end(), t->t().mutable_data_ptr<float>());
  }
  const int64_t stride[2] = {s.stride, s.stride}, padding[2] = {s.pad, s.pad}, dil[2] = {1, 1},
                opad[2] = {0, 0};
  // Scratch as Module gives it (16 MB temp allocator, reset after every instruction).
  std::vector<uint8_t> temp(size_t(16) << 20);
  runtime::MemoryAllocator temp_allocator(temp.data(), temp.size());
  runtime::KernelRuntimeContext ctx(&temp_allocator, nullptr);
  size_t next = 0;
  for (auto _ : state) {
    temp_allocator.reset();
    portable::convolution_out(ctx, in.t(), ws[next]->t(), &b.t(), {stride, 2}, {padding, 2},
                              {dil, 2}, false, {opad, 2}, s.groups, out.t());
    if (++next == copies) next = 0;
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  set_flops(state, s);
  if (ctx.failure_state() != runtime::Error::Ok) state.SkipWithError("kernel failed");
}

// The timed loop of the XNNPACK peers: runs the operators in turn (each holds its own copy of
// the weights, so they are read from memory, not cache), then deletes them. A failed setup
// (a null last operator) runs nothing.
void run_rotated(benchmark::State& state, std::vector<xnn_operator_t>& ops, float* out) {
  size_t next = 0;
  for (auto _ : state) {
    if (ops.back() == nullptr) break;
    xnn_run_operator(ops[next], nullptr);
    if (++next == ops.size()) next = 0;
    benchmark::DoNotOptimize(out);
  }
  for (xnn_operator_t op : ops) {
    if (op != nullptr) xnn_delete_operator(op);
  }
}

void BM_Xnnpack(benchmark::State& state, Shape s) {
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  const int32_t o = out_size(s), n = batch(s);
  // XNNPACK's layouts: input/output NHWC, weights OHWI.
  const auto in = random_floats(size_t(n) * s.ci * s.hw * s.hw, 1);
  const size_t cig = size_t(s.ci / s.groups), cog = size_t(s.co / s.groups);
  const auto w = random_floats(size_t(s.co) * cig * s.k * s.k, 2);
  const auto b = random_floats(size_t(s.co), 3);
  std::vector<float> out(size_t(n) * s.co * o * o);
  const size_t copies = std::max<size_t>(1, kWeightBytes / (w.size() * sizeof(float)));
  std::vector<xnn_operator_t> ops(copies, nullptr);
  std::vector<std::vector<uint8_t>> workspaces(copies);
  const uint32_t p = uint32_t(s.pad);
  for (size_t i = 0; i < ops.size(); ++i) {  // each packs its own copy of the weights
    xnn_operator_t& op = ops[i];
    size_t ws_size = 0, ws_align = 1, oh = 0, ow = 0;
    if (xnn_create_convolution2d_nhwc_f32(p, p, p, p, s.k, s.k, s.stride, s.stride, 1, 1,
                                          uint32_t(s.groups), cig, cog, s.ci, s.co, w.data(),
                                          b.data(), -INFINITY, INFINITY, 0, nullptr, nullptr,
                                          &op) != xnn_status_success ||
        xnn_reshape_convolution2d_nhwc_f32(op, size_t(n), size_t(s.hw), size_t(s.hw), &ws_size,
                                           &ws_align, &oh, &ow, nullptr) != xnn_status_success ||
        (workspaces[i].resize(ws_size + ws_align), false) ||
        xnn_setup_convolution2d_nhwc_f32(
            op,
            workspaces[i].data() +
                (ws_align - uintptr_t(workspaces[i].data()) % ws_align) % ws_align,
            in.data(), out.data()) != xnn_status_success) {
      state.SkipWithError("XNNPACK convolution setup failed");
      break;
    }
  }
  run_rotated(state, ops, out.data());
  set_flops(state, s);
}

// A classifier's linear layer with one input row (MobileNetV3-small's head): addmm with a
// [in, out] B (the lowered graph's folded transpose) against XNNPACK's fully-connected
// operator, weights rotated over copies as above.
struct Linear {
  const char* name;
  int32_t in, out;
};
constexpr Linear kLinears[] = {
    {"mnv3_head_linear_576to1024", 576, 1024},
    {"mnv3_head_linear_1024to1000", 1024, 1000},
    {"regnet_head_linear_400to1000", 400, 1000},
};

void set_linear_flops(benchmark::State& state, const Linear& l) {
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * l.in * l.out,
                                                benchmark::Counter::kIsIterationInvariantRate);
}

void BM_PortableLinear(benchmark::State& state, Linear l) {
  const size_t copies = std::max<size_t>(1, kWeightBytes / (size_t(l.in) * l.out * 4));
  TestTensor x(ScalarType::Float, {1, l.in});
  TestTensor bias(ScalarType::Float, {l.out});
  TestTensor out(ScalarType::Float, {1, l.out});
  std::vector<std::unique_ptr<TestTensor>> ws;
  for (size_t i = 0; i < copies; ++i) {
    ws.push_back(
        std::make_unique<TestTensor>(ScalarType::Float, std::vector<int32_t>{l.in, l.out}));
  }
  std::vector<TestTensor*> filled = {&x, &bias};
  for (auto& w : ws) filled.push_back(w.get());
  for (TestTensor* t : filled) {
    const auto v = random_floats(t->t().numel(), uint32_t(t->t().numel()));
    std::copy(v.begin(), v.end(), t->t().mutable_data_ptr<float>());
  }
  runtime::KernelRuntimeContext ctx(nullptr, nullptr);
  const runtime::Scalar one(1.0);
  size_t next = 0;
  for (auto _ : state) {
    portable::addmm_out(ctx, bias.t(), x.t(), ws[next]->t(), one, one, out.t());
    if (++next == copies) next = 0;
    benchmark::DoNotOptimize(out.t().mutable_data_ptr());
  }
  set_linear_flops(state, l);
  if (ctx.failure_state() != runtime::Error::Ok) state.SkipWithError("kernel failed");
}

void BM_XnnpackLinear(benchmark::State& state, Linear l) {
  if (xnn_initialize(nullptr) != xnn_status_success) {
    state.SkipWithError("xnn_initialize failed");
    return;
  }
  const size_t copies = std::max<size_t>(1, kWeightBytes / (size_t(l.in) * l.out * 4));
  const auto x = random_floats(size_t(l.in), 1);
  const auto w = random_floats(size_t(l.in) * l.out, 2);
  const auto b = random_floats(size_t(l.out), 3);
  std::vector<float> out(size_t(l.out));
  std::vector<xnn_operator_t> ops(copies, nullptr);
  for (xnn_operator_t& op : ops) {
    if (xnn_create_fully_connected_nc_f32(l.in, l.out, l.in, l.out, w.data(), b.data(), -INFINITY,
                                          INFINITY, 0, nullptr, nullptr,
                                          &op) != xnn_status_success ||
        xnn_reshape_fully_connected_nc_f32(op, 1, nullptr) != xnn_status_success ||
        xnn_setup_fully_connected_nc_f32(op, x.data(), out.data()) != xnn_status_success) {
      state.SkipWithError("XNNPACK fully-connected setup failed");
      break;
    }
  }
  run_rotated(state, ops, out.data());
  set_linear_flops(state, l);
}

const bool kRegistered = [] {
  for (const Linear& l : kLinears) {
    benchmark::RegisterBenchmark((std::string("portable/") + l.name).c_str(), &BM_PortableLinear,
                                 l);
    benchmark::RegisterBenchmark((std::string("xnnpack/") + l.name).c_str(), &BM_XnnpackLinear,
                                 l);
  }
  for (const Shape& s : kShapes) {
    benchmark::RegisterBenchmark((std::string("portable/") + s.name).c_str(), &BM_Portable, s);
    benchmark::RegisterBenchmark((std::string("xnnpack/") + s.name).c_str(), &BM_Xnnpack, s);
  }
  return true;
}();

}  // namespace
}  // namespace ember::kernels

BENCHMARK_MAIN();
