// Lowering speed: MobileNetV2 (.pt2, torch 2.6 core ATen) -> .pte with the portable recipe.
//
//   bazel run -c opt //benchmarks:aot_lower_benchmark
//
// BM_LowerMobileNetV2 runs the whole ExportSession (read .pt2 + weights, to_edge,
// to_executorch with memory planning, emit + write_pte); BM_LowerMobileNetV2FromGraph
// starts from the already loaded graph. Counters: pte_bytes, and peak_rss_mb (the process's
// peak resident set, an upper bound of the lowering's peak memory). The model is generated
// by refgen/fixtures (see refgen/fixtures/README.md) into large_fixtures/pt2 beside the
// checkout, or $EMBER_LARGE_FIXTURES_DIR/pt2; the benchmarks report an error when absent.
#include <benchmark/benchmark.h>
#include <sys/resource.h>
#include <sys/stat.h>

#include <cstdlib>
#include <string>

#include "aot/frontend/pt2_reader.h"
#include "aot/recipe/export_session.h"
#include "aot/recipe/stages.h"

namespace {

using namespace ember::aot;

std::string model_path() {
  const char* name = "/pt2/mobilenet_v2.core_aten.torch2_6.pt2";
  std::vector<std::string> candidates;
  if (const char* env = std::getenv("EMBER_LARGE_FIXTURES_DIR")) candidates.push_back(env + std::string(name));
  if (const char* cwd = std::getenv("BUILD_WORKING_DIRECTORY")) {
    candidates.push_back(std::string(cwd) + "/../large_fixtures" + name);
  }
  candidates.push_back(std::string("/work/large_fixtures") + name);
  for (const auto& c : candidates) {
    struct stat st;
    if (stat(c.c_str(), &st) == 0) return c;
  }
  return "";
}

double peak_rss_mb() {
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

void BM_LowerMobileNetV2(benchmark::State& state) {
  std::string path = model_path();
  if (path.empty()) {
    state.SkipWithError("mobilenet_v2 .pt2 not found (generate it with refgen/fixtures)");
    return;
  }
  RecipeRegistry recipes;
  if (register_builtin_recipes(&recipes) != Error::Ok) return state.SkipWithError("recipes");
  size_t bytes = 0;
  for (auto _ : state) {
    auto session = ExportSession::create(recipes, "portable", path);
    Error st = session.ok() ? session->run() : session.error();
    if (st != Error::Ok) return state.SkipWithError(format_error(st).c_str());
    bytes = session->pte()->size();
    benchmark::DoNotOptimize(bytes);
  }
  state.counters["pte_bytes"] = static_cast<double>(bytes);
  state.counters["peak_rss_mb"] = peak_rss_mb();
}
BENCHMARK(BM_LowerMobileNetV2)->Unit(benchmark::kMillisecond);

void BM_LowerMobileNetV2FromGraph(benchmark::State& state) {
  std::string path = model_path();
  if (path.empty()) {
    state.SkipWithError("mobilenet_v2 .pt2 not found (generate it with refgen/fixtures)");
    return;
  }
  auto graph = read_pt2_file(path);
  if (!graph.ok()) return state.SkipWithError(format_error(graph.error()).c_str());
  StageArtifact loaded;
  loaded.graph = std::make_shared<const Graph>(std::move(graph.get()));
  for (auto _ : state) {
    ToEdgeStage edge;
    ToExecutorchStage exec;
    EmitStage emit;
    Error st = edge.run(loaded, {});
    if (st == Error::Ok) st = exec.run(edge.artifact(), {});
    if (st == Error::Ok) st = emit.run(exec.artifact(), {});
    if (st != Error::Ok) return state.SkipWithError(format_error(st).c_str());
    benchmark::DoNotOptimize(emit.artifact().pte->size());
  }
  state.counters["peak_rss_mb"] = peak_rss_mb();
}
BENCHMARK(BM_LowerMobileNetV2FromGraph)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
