// The cost of dynamic shapes in Ember's XNNPACK delegate, single thread, one process:
// transformer_dynamic_seq (nn.TransformerEncoderLayer, d_model 32, seq in [2, 64]) lowered with
// the "xnnpack" recipe (7 delegate calls: the views, layer norms, linears and matmuls are
// delegated with their upper bounds, the runtime half re-plans per input shape) and with the
// "portable" recipe, run by Module at
//   Seq13_Same, Seq64_Same, Seq8_Same -- one shape every run: each delegate's plan is cached;
//   Seq_Cycle4      -- seq 8, 2, 13, 32 in turn: four shapes, all held by the plan cache
//                      (kMaxCachedPlans = 4);
//   Seq_Cycle6      -- seq 8, 2, 13, 32, 5, 20 in turn: more shapes than the cache holds, so
//                      every run rebuilds each delegate's XNNPACK runtimes (the re-setup cost);
// and the static transformer_encoder_layer ([2, 8, 32], 1 delegate call) for reference.
//   bazel run -c opt //benchmarks:xnnpack_dynamic_benchmark
#include <benchmark/benchmark.h>

#include <memory>
#include <string>
#include <vector>

#include "aot/recipe/export_session.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/e2e/fixture_corpus.h"

namespace {

using ember::runtime::Error;

std::string fixture_path(const std::string& id) {
  static const std::vector<ember::testing::Fixture> all = ember::testing::list_fixtures();
  for (const auto& f : all) {
    if (f.id == id) return f.pt2;
  }
  return "";
}

std::vector<uint8_t> lower(const std::string& pt2, const std::string& recipe) {
  ember::aot::RecipeRegistry recipes;
  (void)ember::aot::register_builtin_recipes(&recipes);
  (void)ember::backends::xnnpack::register_xnnpack_recipe(&recipes);
  auto s = ember::aot::ExportSession::create(recipes, recipe, pt2, {}, {});
  if (!s.ok() || s->run() != Error::Ok || s->pte() == nullptr) return {};
  return *s->pte();
}

struct Registries {
  ember::runtime::FixedKernelRegistry<ember::runtime::kDefaultKernelRegistryCapacity> kernels;
  ember::runtime::BackendRegistry backends;
  bool ok = false;
};

Registries& registries() {
  static Registries r;
  static bool once = [] {
    r.ok = ember::runtime::register_prim_ops(r.kernels) == Error::Ok &&
           ember::kernels::portable::register_kernels(r.kernels) == Error::Ok &&
           ember::backends::xnnpack::register_backend(r.backends) == Error::Ok;
    return true;
  }();
  (void)once;
  return r;
}

// Runs `id` lowered with `recipe` on inputs [2, seq, 32], cycling through `seqs`.
void run(benchmark::State& state, const std::string& id, const std::string& recipe, std::vector<int32_t> seqs) {
  const std::string pt2 = fixture_path(id);
  if (pt2.empty()) return state.SkipWithError("fixture not found");
  const std::vector<uint8_t> pte = lower(pt2, recipe);
  if (pte.empty()) return state.SkipWithError("lowering failed");
  Registries& reg = registries();
  if (!reg.ok) return state.SkipWithError("registration failed");
  ember::runtime::Module module(pte.data(), pte.size());
  ember::runtime::Module::Options mo;
  mo.method.kernels = &reg.kernels;
  mo.method.backends = &reg.backends;
  module.set_options(mo);
  if (module.load() != Error::Ok) return state.SkipWithError("load failed");
  struct Input {
    std::vector<float> data;
    int32_t sizes[3];
    int32_t strides[3];
    uint8_t order[3] = {0, 1, 2};
    std::unique_ptr<ember::runtime::Tensor> tensor;
  };
  std::vector<Input> inputs(seqs.size());
  for (size_t k = 0; k < seqs.size(); ++k) {
    Input& in = inputs[k];
    in.sizes[0] = 2, in.sizes[1] = seqs[k], in.sizes[2] = 32;
    in.data.resize(size_t(2 * seqs[k] * 32));
    for (size_t i = 0; i < in.data.size(); ++i) in.data[i] = float(int(i % 17) - 8) / 8.f;
    in.tensor = std::make_unique<ember::runtime::Tensor>(ember::runtime::ScalarType::Float, 3, in.sizes,
                                                         in.order, in.strides, in.data.data());
  }
  size_t k = 0;
  for (auto _ : state) {
    std::vector<ember::runtime::EValue> args{ember::runtime::EValue(inputs[k].tensor.get())};
    auto out = module.execute("forward", args);
    if (!out.ok()) return state.SkipWithError("execute failed");
    k = (k + 1) % inputs.size();
  }
}

constexpr const char* kDynamic = "transformer_dynamic_seq.core_aten.torch2_6";
constexpr const char* kStatic = "transformer_encoder_layer.core_aten.torch2_6";

void BM_TransformerDynamic_Xnnpack_Seq13_Same(benchmark::State& s) { run(s, kDynamic, "xnnpack", {13}); }
void BM_TransformerDynamic_Xnnpack_Seq_Cycle4(benchmark::State& s) { run(s, kDynamic, "xnnpack", {8, 2, 13, 32}); }
void BM_TransformerDynamic_Xnnpack_Seq_Cycle6(benchmark::State& s) {
  run(s, kDynamic, "xnnpack", {8, 2, 13, 32, 5, 20});
}
void BM_TransformerDynamic_Portable_Seq13_Same(benchmark::State& s) { run(s, kDynamic, "portable", {13}); }
void BM_TransformerDynamic_Portable_Seq_Cycle6(benchmark::State& s) {
  run(s, kDynamic, "portable", {8, 2, 13, 32, 5, 20});
}
void BM_TransformerDynamic_Xnnpack_Seq64_Same(benchmark::State& s) { run(s, kDynamic, "xnnpack", {64}); }
void BM_TransformerDynamic_Portable_Seq64_Same(benchmark::State& s) { run(s, kDynamic, "portable", {64}); }
void BM_TransformerDynamic_Xnnpack_Seq8_Same(benchmark::State& s) { run(s, kDynamic, "xnnpack", {8}); }
void BM_TransformerStatic_Xnnpack_Seq8(benchmark::State& s) { run(s, kStatic, "xnnpack", {8}); }

BENCHMARK(BM_TransformerDynamic_Xnnpack_Seq13_Same)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Xnnpack_Seq_Cycle4)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Xnnpack_Seq_Cycle6)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Portable_Seq13_Same)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Portable_Seq_Cycle6)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Xnnpack_Seq64_Same)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Portable_Seq64_Same)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerDynamic_Xnnpack_Seq8_Same)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_TransformerStatic_Xnnpack_Seq8)->Unit(benchmark::kMicrosecond);

}  // namespace

BENCHMARK_MAIN();
