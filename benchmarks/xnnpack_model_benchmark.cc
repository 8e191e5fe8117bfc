// Whole upstream XNNPACK programs through Ember (Module -> Method -> XnnpackBackend
// + portable kernels), single-threaded: load once, then time set_input + execute
// per iteration on the manifest's reference inputs. Reads the shared fixture
// corpus (skips when absent).
//   bazel run -c opt //benchmarks:xnnpack_model_benchmark
#include <benchmark/benchmark.h>

#include <fstream>
#include <memory>
#include <string>

#include <nlohmann/json.hpp>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/backend/backend_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/runtime/reference_case.h"
#include "tests/runtime/reference_kernels.h"
#include "tests/support/shared_fixtures.h"

namespace {

using ember::runtime::Error;

void run_model(benchmark::State& state, const std::string& stem) {
  const std::string shared = ember::testing::shared_dir();
  if (shared.empty()) return state.SkipWithError(ember::testing::skip_message());
  const std::string dir = shared + "/fixtures/executorch-pte";
  static ember::runtime::FixedKernelRegistry<1024> kernels;
  static ember::runtime::BackendRegistry backends;
  static bool registered = false;
  if (!registered) {
    registered = ember::runtime::register_prim_ops(kernels) == Error::Ok &&
                 ember::testing::register_reference_kernels(kernels) == Error::Ok &&
                 ember::backends::xnnpack::register_backend(backends) == Error::Ok;
  }
  std::ifstream in(dir + "/reference/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  const nlohmann::json* first = nullptr;
  for (const auto& c : manifest["cases"]) {
    if (c["fixture"] == stem + ".pte" && c["method"] == "forward" && c["expect"] == "ok") {
      first = &c;
      break;
    }
  }
  if (!registered || first == nullptr) return state.SkipWithError("no case or registration failed");
  ember::runtime::Module module(dir + "/" + stem + ".pte");
  ember::runtime::Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  module.set_options(options);
  ember::testing::CaseInputs inputs;
  if (!ember::testing::build_inputs(*first, dir, &inputs).empty() ||
      !module.load_method("forward").ok()) {
    return state.SkipWithError("load failed");
  }
  for (auto _ : state) {
    auto out = module.execute("forward", inputs.values);
    if (!out.ok()) {
      state.SkipWithError("execute failed");
      break;
    }
  }
}

void BM_Ember_YoloxNano416(benchmark::State& s) {
  run_model(s, "kadu-v__yolox-executorch-ios__yolox_nano_xnnpack");
}
void BM_Ember_StressMlp(benchmark::State& s) {
  run_model(s, "corey-cole__djl-executorch-engine__stress_mlp");
}
void BM_Ember_SimpleTorchModel(benchmark::State& s) {
  run_model(s, "corey-cole__simple-torch-model__model");
}

BENCHMARK(BM_Ember_YoloxNano416)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Ember_StressMlp)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Ember_SimpleTorchModel)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
