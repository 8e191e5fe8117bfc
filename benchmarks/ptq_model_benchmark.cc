// fp32 against int8 (post-training quantization in Ember, #19 part 3), single thread:
//   Fp32_Xnnpack   -- the float .pt2 lowered with the "xnnpack" recipe
//   Int8_Xnnpack   -- the same .pt2 with "xnnpack-int8" (calibrated on the fixture's samples)
//   Int8_Portable  -- "portable-int8": the QDQ program on the portable kernels
// Counters: pte_bytes (the .pte size) and int8/fp32 size ratio on the int8 rows.
// Models (refgen/fixtures/generate_ptq_refs.py): MobileNetV2 and ResNet-18 at 224x224 from
// large_fixtures/ptq ($EMBER_LARGE_FIXTURES_DIR/ptq, else beside the checkout; rows skip
// when absent), and the committed MobileNetV2 w0.35 at 32x32.
//   bazel run -c opt //benchmarks:ptq_model_benchmark -- --benchmark_format=json
#include <benchmark/benchmark.h>

#include <limits.h>
#include <stdlib.h>

#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "aot/recipe/export_session.h"
#include "aot/recipe/run_method.h"
#include "backends/xnnpack/aot/xnnpack_partitioner.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"

namespace {

using ember::aot::HostTensor;

// The checkout: $BUILD_WORKSPACE_DIRECTORY under `bazel run`, else the current directory.
std::string repo_dir() {
  const char* ws = std::getenv("BUILD_WORKSPACE_DIRECTORY");
  char real[PATH_MAX];
  if (ws != nullptr) return ws;
  return realpath(".", real) != nullptr ? real : ".";
}

std::string model_dir(const std::string& model) {
  if (model == "ptq_mobilenet_v2_w035") return repo_dir() + "/tests/fixtures/ptq";
  if (const char* env = std::getenv("EMBER_LARGE_FIXTURES_DIR"); env != nullptr && *env != 0) {
    return std::string(env) + "/ptq";
  }
  const std::string repo = repo_dir();
  return repo.substr(0, repo.find_last_of('/')) + "/large_fixtures/ptq";
}

std::vector<uint8_t> read(const std::string& path) {
  std::ifstream f(path, std::ios::binary);
  return std::vector<uint8_t>((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
}

const ember::runtime::BackendRegistry& backends() {
  static ember::runtime::BackendRegistry* r = [] {
    auto* reg = new ember::runtime::BackendRegistry();
    (void)ember::backends::xnnpack::register_backend(*reg);
    return reg;
  }();
  return *r;
}

struct Lowered {
  std::vector<uint8_t> pte;
  std::vector<HostTensor> input;
};

// Lowers `model` with `recipe` once per process (cached) and returns the .pte.
const Lowered* lowered(const std::string& model, const std::string& recipe) {
  static std::map<std::string, std::unique_ptr<Lowered>> cache;
  const std::string key = model + "/" + recipe;
  if (auto it = cache.find(key); it != cache.end()) return it->second.get();
  const std::string dir = model_dir(model);
  std::ifstream rf(dir + "/" + model + ".ref.json");
  if (!rf) return nullptr;
  const nlohmann::json ref = nlohmann::json::parse(rf, nullptr, false);
  ember::aot::RecipeOptions ro;
  for (const auto& s : ref["samples"]) {
    std::vector<HostTensor> sample;
    for (const auto& f : s["inputs"]) {
      HostTensor t;
      t.dtype = ember::aot::ScalarType::Undefined;
      t.bytes = read(dir + "/" + f.get<std::string>());
      sample.push_back(std::move(t));
    }
    ro.quantize.samples.push_back(std::move(sample));
  }
  ro.quantize.runner = [](const std::vector<uint8_t>& pte, const std::string& m,
                          const std::vector<HostTensor>& in) {
    ember::aot::RunOptions o;
    o.backends = &backends();
    return ember::aot::run_pte_method(pte, m, in, o);
  };
  ember::aot::RecipeRegistry recipes;
  (void)ember::aot::register_builtin_recipes(&recipes);
  (void)ember::backends::xnnpack::register_xnnpack_recipe(&recipes);
  (void)ember::aot::register_int8_recipes(&recipes, {"portable", "xnnpack"});
  auto s = ember::aot::ExportSession::create(recipes, recipe, dir + "/" + model + ".pt2", ro, {});
  if (!s.ok() || s->run() != ember::aot::Error::Ok) return nullptr;
  auto l = std::make_unique<Lowered>();
  l->pte = *s->pte();
  const auto& shape = ref["samples"][0]["input_shapes"][0];
  HostTensor in;
  in.dtype = ember::aot::ScalarType::Float;
  for (const auto& d : shape) in.sizes.push_back(d.get<int64_t>());
  in.bytes = read(dir + "/" + ref["samples"][0]["inputs"][0].get<std::string>());
  l->input.push_back(std::move(in));
  return (cache[key] = std::move(l)).get();
}

void run(benchmark::State& state, const std::string& model, const std::string& recipe) {
  const Lowered* l = lowered(model, recipe);
  if (l == nullptr) return state.SkipWithError("fixture absent or lowering failed");
  static ember::runtime::FixedKernelRegistry<ember::runtime::kDefaultKernelRegistryCapacity> kernels;
  static bool ok = ember::runtime::register_prim_ops(kernels) == ember::runtime::Error::Ok &&
                   ember::kernels::portable::register_kernels(kernels) == ember::runtime::Error::Ok;
  if (!ok) return state.SkipWithError("registration failed");
  ember::runtime::Module module(l->pte.data(), l->pte.size());
  ember::runtime::Module::Options mo;
  mo.method.kernels = &kernels;
  mo.method.backends = &backends();
  module.set_options(mo);
  const HostTensor& in = l->input[0];
  std::vector<int32_t> sizes(in.sizes.begin(), in.sizes.end()), strides(sizes.size());
  std::vector<uint8_t> order(sizes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = uint8_t(i);
  std::vector<uint8_t> data = in.bytes;
  ember::runtime::Tensor t(ember::runtime::ScalarType::Float, sizes.size(), sizes.data(), order.data(),
                           strides.data(), data.data());
  std::vector<ember::runtime::EValue> args{ember::runtime::EValue(&t)};
  if (module.load() != ember::runtime::Error::Ok) return state.SkipWithError("load failed");
  for (auto _ : state) {
    auto out = module.execute("forward", args);
    if (!out.ok()) return state.SkipWithError("execute failed");
  }
  state.counters["pte_bytes"] = double(l->pte.size());
  if (recipe != "xnnpack") {
    const Lowered* f = lowered(model, "xnnpack");
    if (f != nullptr) state.counters["size_vs_fp32"] = double(l->pte.size()) / double(f->pte.size());
  }
}

#define PTQ_ROWS(name, model)                                                              \
  BENCHMARK_CAPTURE(run, Fp32_Xnnpack_##name, model, "xnnpack")->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(run, Int8_Xnnpack_##name, model, "xnnpack-int8")->Unit(benchmark::kMillisecond); \
  BENCHMARK_CAPTURE(run, Int8_Portable_##name, model, "portable-int8")->Unit(benchmark::kMillisecond)

PTQ_ROWS(MobileNetV2_w035_32, "ptq_mobilenet_v2_w035");
PTQ_ROWS(MobileNetV2_224, "ptq_mobilenet_v2");
PTQ_ROWS(ResNet18_224, "ptq_resnet18");

}  // namespace

BENCHMARK_MAIN();
