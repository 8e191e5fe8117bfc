// Small upstream programs from the shared corpus run by Ember's runtime with the portable
// kernels, single-threaded: the per-call cost of tiny kernels plus the instruction loop.
// Each benchmark loads one program and times set_inputs() (the first manifest case's
// inputs) plus execute(), as executor_runner does; the `time_per_instruction` counter divides the time of
// one execute() by the method's instruction count (upstream's xor.pte: 66 instructions
// on tensors of a few elements). Skips when ../shared is absent.
//   bazel run -c opt //benchmarks:corpus_program_benchmark -- --benchmark_repetitions=8
//     --benchmark_enable_random_interleaving=true --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "runtime/core/diagnostics.h"
#include "runtime/kernel/prim_ops/prim_ops.h"
#include "runtime/module/module.h"
#include "tests/runtime/reference_case.h"
#include "tests/runtime/reference_kernels.h"
#include "tests/support/shared_fixtures.h"

namespace {

using ember::runtime::Error;

ember::runtime::KernelRegistry* portable_registry() {
  static ember::runtime::FixedKernelRegistry<1024> kernels;
  static const bool ok = ember::runtime::register_prim_ops(kernels) == Error::Ok &&
                         ember::testing::register_reference_kernels(kernels) == Error::Ok;
  return ok ? &kernels : nullptr;
}

void run_program(benchmark::State& state, const std::string& stem) {
  const std::string shared = ember::testing::shared_dir();
  if (shared.empty()) return state.SkipWithError(ember::testing::skip_message());
  const std::string dir = shared + "/fixtures/executorch-pte";
  std::ifstream in(dir + "/reference/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in, nullptr, false);
  if (manifest.is_discarded()) return state.SkipWithError("no manifest.json in the corpus");
  const nlohmann::json* first = nullptr;
  for (const auto& c : manifest["cases"]) {
    if (c["fixture"] == stem + ".pte" && c["method"] == "forward" && c["expect"] == "ok") {
      first = &c;
      break;
    }
  }
  ember::runtime::KernelRegistry* kernels = portable_registry();
  if (kernels == nullptr || first == nullptr) return state.SkipWithError("no case or registration failed");
  const std::string data = (*first)["data_file"].is_string() ? dir + "/" + (*first)["data_file"].get<std::string>() : "";
  ember::runtime::Module module(dir + "/" + stem + ".pte", data);
  ember::runtime::Module::Options options;
  options.method.kernels = kernels;
  module.set_options(options);
  ember::testing::CaseInputs inputs;
  if (!ember::testing::build_inputs(*first, dir, &inputs).empty()) return state.SkipWithError("bad inputs");
  ember::runtime::Result<ember::runtime::Method*> method = module.load_method("forward");
  if (!method.ok()) return state.SkipWithError("load failed");
  ember::runtime::Method& m = **method;
  const ember::runtime::Span<const ember::runtime::EValue> values(inputs.values.data(), inputs.values.size());
  for (auto _ : state) {
    // Inputs are set every run, as executor_runner does: a plan may reuse an input's
    // memory once the input is dead (xor.pte does).
    Error err = m.set_inputs(values);
    if (err == Error::Ok) err = m.execute();
    if (err != Error::Ok) {
      char buffer[512];
      state.SkipWithError(ember::runtime::format_error(err, buffer, sizeof(buffer)));
      break;
    }
  }
  // Instructions per iteration as an inverted rate: CPU seconds per instruction ("35.2n").
  state.counters["time_per_instruction"] =
      benchmark::Counter(double(m.num_instructions()),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  state.counters["instructions"] = double(m.num_instructions());
}

void BM_Portable_Xor(benchmark::State& s) { run_program(s, "pytorch__executorch__xor"); }
void BM_Portable_Add(benchmark::State& s) { run_program(s, "pytorch__executorch__add"); }
void BM_Portable_Softmax(benchmark::State& s) { run_program(s, "pytorch__executorch__softmax"); }
void BM_Portable_ModuleLinear(benchmark::State& s) {
  run_program(s, "pytorch__executorch__ModuleLinear-no-constant-segment");
}

BENCHMARK(BM_Portable_Xor)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Portable_Add)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Portable_Softmax)->Unit(benchmark::kNanosecond);
BENCHMARK(BM_Portable_ModuleLinear)->Unit(benchmark::kNanosecond);

}  // namespace

BENCHMARK_MAIN();
