// Whole-model speed of Ember's own XNNPACK lowering, single thread, same process and run:
//   Ember_Xnnpack   -- .pt2 lowered with the "xnnpack" recipe, run by Module (executor +
//                      XnnpackBackend + portable kernels for anything not delegated);
//   Direct_Xnnpack  -- the same XNNGraph (nodes, weights) defined straight through
//                      XNNPACK's subgraph API (xnn_define_*, xnn_create_runtime_v2,
//                      xnn_setup_runtime, xnn_invoke_runtime), no Ember code on the path;
//                      the boundary NCHW->NHWC transpose is dropped (the input is fed as
//                      NHWC), which is what a hand-written XNNPACK user would do;
//   Ember_Portable  -- the "portable" recipe (no delegate).
// Models: MobileNetV2 at 64x64 and 224x224, ResNet-18 at 112x112 (large fixtures written by
// refgen/fixtures/generate_pt2.py --large-out; each row is skipped when its file is absent)
// and the conv-bn-relu fixture.
//   bazel run -c opt //benchmarks:xnnpack_aot_benchmark
#include <benchmark/benchmark.h>
#include <xnnpack.h>

#include <cmath>
#include <memory>
#include <string>

#include "aot/emit/emit_graph.h"
#include "aot/recipe/export_session.h"
#include "backends/xnnpack/aot/xnnpack_graph_builder.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/e2e/fixture_corpus.h"

namespace {

namespace fb = fb_xnnpack;
using ember::aot::HostTensor;
using ember::runtime::Error;

const ember::testing::Fixture* find_fixture(const std::string& model) {
  static const std::vector<ember::testing::Fixture> all = ember::testing::list_fixtures();
  for (const auto& f : all) {
    if (f.id.rfind(model + ".core_aten.torch2_6", 0) == 0) return &f;
  }
  return nullptr;
}

std::unique_ptr<ember::aot::ExportSession> lower(const std::string& pt2, const std::string& recipe,
                                                 const std::string& until) {
  ember::aot::RecipeRegistry recipes;
  (void)ember::aot::register_builtin_recipes(&recipes);
  (void)ember::backends::xnnpack::register_xnnpack_recipe(&recipes);
  auto s = ember::aot::ExportSession::create(recipes, recipe, pt2, {}, {});
  if (!s.ok()) return nullptr;
  auto session = std::make_unique<ember::aot::ExportSession>(std::move(s.get()));
  if (((until.empty() ? session->run() : session->run_until(until)) != Error::Ok)) return nullptr;
  return session;
}

void run_ember(benchmark::State& state, const std::string& model, const std::string& recipe) {
  const ember::testing::Fixture* f = find_fixture(model);
  if (f == nullptr) return state.SkipWithError("fixture not found");
  auto session = lower(f->pt2, recipe, "");
  if (session == nullptr) return state.SkipWithError("lowering failed");
  static ember::runtime::FixedKernelRegistry<ember::runtime::kDefaultKernelRegistryCapacity> kernels;
  static ember::runtime::BackendRegistry backends;
  static bool ok = ember::runtime::register_prim_ops(kernels) == ember::runtime::Error::Ok &&
                   ember::kernels::portable::register_kernels(kernels) == ember::runtime::Error::Ok &&
                   ember::backends::xnnpack::register_backend(backends) == ember::runtime::Error::Ok;
  if (!ok) return state.SkipWithError("registration failed");
  const std::vector<uint8_t> pte = *session->pte();
  ember::runtime::Module module(pte.data(), pte.size());
  ember::runtime::Module::Options mo;
  mo.method.kernels = &kernels;
  mo.method.backends = &backends;
  module.set_options(mo);
  HostTensor in;
  if (!ember::testing::read_fixture_tensor(f->cases[0].inputs[0], &in)) return state.SkipWithError("input");
  std::vector<int32_t> sizes(in.sizes.begin(), in.sizes.end()), strides(sizes.size());
  std::vector<uint8_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint8_t(i);
  ember::runtime::Tensor t(ember::runtime::ScalarType::Float, sizes.size(), sizes.data(), order.data(),
                           strides.data(), in.bytes.data());
  std::vector<ember::runtime::EValue> args{ember::runtime::EValue(&t)};
  if (module.load() != ember::runtime::Error::Ok) return state.SkipWithError("load failed");
  for (auto _ : state) {
    auto out = module.execute("forward", args);
    if (!out.ok()) return state.SkipWithError("execute failed");
  }
}

// Defines the single XNNPACK blob of `model` directly with the subgraph API.
void run_direct(benchmark::State& state, const std::string& model, bool setup_each_run = false) {
  const ember::testing::Fixture* f = find_fixture(model);
  if (f == nullptr) return state.SkipWithError("fixture not found");
  auto session = lower(f->pt2, "xnnpack", "to_backend");
  if (session == nullptr) return state.SkipWithError("lowering failed");
  std::vector<uint8_t> blob;
  for (const auto& n : session->last_artifact().graph->nodes()) {
    auto it = n.metadata.find(ember::aot::kDelegateBlobKey);
    if (it != n.metadata.end()) {
      if (!blob.empty()) return state.SkipWithError("more than one delegate");
      blob.assign(it->second.begin(), it->second.end());
    }
  }
  auto h = ember::backends::xnnpack::parse_xnnpack_header(blob);
  if (!h.ok() || xnn_initialize(nullptr) != xnn_status_success) return state.SkipWithError("blob/init");
  const fb::XNNGraph* g = fb::GetXNNGraph(blob.data() + h->flatbuffer_offset);
  const uint8_t* consts = blob.data() + h->constant_data_offset;
  xnn_subgraph_t sub = nullptr;
  if (xnn_create_subgraph(2, 0, &sub) != xnn_status_success) return state.SkipWithError("subgraph");
  std::vector<uint32_t> ids(g->xvalues()->size(), XNN_INVALID_VALUE_ID);
  // The boundary transpose's output becomes external input 0 (fed NHWC).
  uint32_t skip_node = UINT32_MAX, nhwc_value = UINT32_MAX;
  const fb::XNode* first = g->xnodes()->Get(0);
  if (first->xnode_union_type() == fb::XNodeUnion::XNNStaticTranspose) {
    skip_node = 0;
    nhwc_value = first->xnode_union_as_XNNStaticTranspose()->output_id();
  }
  size_t out_numel = 1, in_numel = 1;
  for (uint32_t v = 0; v < g->xvalues()->size(); ++v) {
    const auto* t = g->xvalues()->Get(v)->xvalue_union_as_XNNTensorValue();
    std::vector<size_t> dims(t->dims()->begin(), t->dims()->end());
    const void* data = t->constant_buffer_idx() == 0
                           ? nullptr
                           : consts + g->constant_data()->Get(t->constant_buffer_idx())->offset();
    uint32_t ext = XNN_INVALID_VALUE_ID, flags = 0;
    if (v == nhwc_value) ext = 0, flags = XNN_VALUE_FLAG_EXTERNAL_INPUT;
    if (t->flags() == 2) ext = 1, flags = XNN_VALUE_FLAG_EXTERNAL_OUTPUT;
    if (t->flags() == 1) continue;  // the NCHW input is not used
    for (size_t d : dims) {
      if (flags == XNN_VALUE_FLAG_EXTERNAL_INPUT) in_numel *= d;
      if (flags == XNN_VALUE_FLAG_EXTERNAL_OUTPUT) out_numel *= d;
    }
    if (xnn_define_tensor_value(sub, xnn_datatype_fp32, dims.size(), dims.data(), data, ext, flags, &ids[v]) !=
        xnn_status_success) {
      return state.SkipWithError("define value");
    }
  }
  for (uint32_t i = 0; i < g->xnodes()->size(); ++i) {
    if (i == skip_node) continue;
    const fb::XNode* n = g->xnodes()->Get(i);
    const float lo = n->output_min_max() ? n->output_min_max()->output_min() : -INFINITY;
    const float hi = n->output_min_max() ? n->output_min_max()->output_max() : INFINITY;
    xnn_status st = xnn_status_unsupported_parameter;
    switch (n->xnode_union_type()) {
      case fb::XNodeUnion::XNNConv2d: {
        const auto* c = static_cast<const fb::_XNNNodeConv*>(n->xnode_union());
        st = xnn_define_convolution_2d(sub, c->padding_top(), c->padding_right(), c->padding_bottom(),
                                       c->padding_left(), c->kernel_height(), c->kernel_width(),
                                       c->subsampling_height(), c->subsampling_width(), c->dilation_height(),
                                       c->dilation_width(), c->groups(), c->group_input_channels(),
                                       c->group_output_channels(), lo, hi, ids[c->input1_id()],
                                       ids[c->filter_id()], ids[c->bias_id()], ids[c->output_id()], 0);
        break;
      }
      case fb::XNodeUnion::XNNFullyConnected: {
        const auto* c = n->xnode_union_as_XNNFullyConnected();
        st = xnn_define_fully_connected(sub, lo, hi, ids[c->input1_id()], ids[c->filter_id()],
                                        ids[c->bias_id()], ids[c->output_id()], 0);
        break;
      }
      case fb::XNodeUnion::XNNAdd: {
        const auto* c = static_cast<const fb::_XNNNode2x1*>(n->xnode_union());
        const xnn_binary_params params = {lo, hi};
        st = xnn_define_binary(sub, xnn_binary_add, &params, ids[c->input1_id()],
                               ids[c->input2_id()], ids[c->output_id()], 0);
        break;
      }
      case fb::XNodeUnion::XNNMaxPooling2d: {
        const auto* c = static_cast<const fb::_XNNPooling2D*>(n->xnode_union());
        st = xnn_define_max_pooling_2d(sub, c->padding_top(), c->padding_right(), c->padding_bottom(),
                                       c->padding_left(), c->pooling_height(), c->pooling_width(),
                                       c->stride_height(), c->stride_width(), c->dilation_height(),
                                       c->dilation_width(), lo, hi, ids[c->input_id()], ids[c->output_id()], 0);
        break;
      }
      case fb::XNodeUnion::XNNGlobalAvgPooling2d: {
        const auto* c = static_cast<const fb::_XNNNode1x1*>(n->xnode_union());
        // A mean over H and W of NHWC, keeping [N, 1, 1, C] (the exporter's clamp is -inf..inf).
        const size_t axes[2] = {1, 2};
        st = xnn_define_static_reduce(sub, xnn_reduce_mean, 2, axes, ids[c->input_id()],
                                      ids[c->output_id()], XNN_FLAG_KEEP_DIMS);
        break;
      }
      case fb::XNodeUnion::XNNStaticReshape: {
        const auto* c = n->xnode_union_as_XNNStaticReshape();
        std::vector<size_t> shape(c->new_shape()->begin(), c->new_shape()->end());
        st = xnn_define_static_reshape(sub, shape.size(), shape.data(), ids[c->input_id()], ids[c->output_id()], 0);
        break;
      }
      default:
        break;
    }
    if (st != xnn_status_success) return state.SkipWithError("node type not in the direct definer");
  }
  xnn_runtime_t rt = nullptr;
  if (xnn_create_runtime_v2(sub, nullptr, 0, &rt) != xnn_status_success) return state.SkipWithError("runtime");
  std::vector<float> in(in_numel + 16, 0.5f), out(out_numel + 16);
  xnn_external_value ext[2] = {{0, in.data()}, {1, out.data()}};
  if (xnn_reshape_runtime(rt) != xnn_status_success) return state.SkipWithError("reshape");
  if (xnn_setup_runtime_v2(rt, 2, ext) != xnn_status_success) return state.SkipWithError("setup");
  for (auto _ : state) {
    if (setup_each_run && xnn_setup_runtime_v2(rt, 2, ext) != xnn_status_success)
      return state.SkipWithError("setup");
    if (xnn_invoke_runtime(rt) != xnn_status_success) return state.SkipWithError("invoke");
  }
  xnn_delete_runtime(rt);
  xnn_delete_subgraph(sub);
}

void BM_MobileNetV2_Ember_Xnnpack(benchmark::State& s) { run_ember(s, "mobilenet_v2", "xnnpack"); }
void BM_MobileNetV2_Direct_Xnnpack(benchmark::State& s) { run_direct(s, "mobilenet_v2"); }
// Direct, but calling xnn_setup_runtime before every invoke as a delegate that rebinds
// its external pointers each execute does: how much of Ember's overhead that is.
void BM_MobileNetV2_Direct_Xnnpack_SetupEachRun(benchmark::State& s) { run_direct(s, "mobilenet_v2", true); }
void BM_MobileNetV2_Ember_Portable(benchmark::State& s) { run_ember(s, "mobilenet_v2", "portable"); }
void BM_MobileNetV2_224_Ember_Xnnpack(benchmark::State& s) { run_ember(s, "mobilenet_v2_224", "xnnpack"); }
void BM_MobileNetV2_224_Direct_Xnnpack(benchmark::State& s) { run_direct(s, "mobilenet_v2_224"); }
void BM_MobileNetV2_224_Ember_Portable(benchmark::State& s) { run_ember(s, "mobilenet_v2_224", "portable"); }
void BM_ResNet18_Ember_Xnnpack(benchmark::State& s) { run_ember(s, "resnet18", "xnnpack"); }
void BM_ResNet18_Direct_Xnnpack(benchmark::State& s) { run_direct(s, "resnet18"); }
void BM_ResNet18_Ember_Portable(benchmark::State& s) { run_ember(s, "resnet18", "portable"); }
void BM_ConvBnRelu_Ember_Xnnpack(benchmark::State& s) { run_ember(s, "conv_bn_relu", "xnnpack"); }
void BM_ConvBnRelu_Direct_Xnnpack(benchmark::State& s) { run_direct(s, "conv_bn_relu"); }
void BM_ConvBnRelu_Ember_Portable(benchmark::State& s) { run_ember(s, "conv_bn_relu", "portable"); }

BENCHMARK(BM_MobileNetV2_Ember_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_Direct_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_Direct_Xnnpack_SetupEachRun)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_Ember_Portable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_224_Ember_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_224_Direct_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_MobileNetV2_224_Ember_Portable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResNet18_Ember_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResNet18_Direct_Xnnpack)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ResNet18_Ember_Portable)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ConvBnRelu_Ember_Xnnpack)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ConvBnRelu_Direct_Xnnpack)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_ConvBnRelu_Ember_Portable)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
