// ember_runner: one Ember measurement for run_peers.py (one process per run).
//
//   ember_runner PROGRAM.pte THREADS WARMUP ITERATIONS OUTPUT_PREFIX INPUT.bin[,INPUT.bin...]
//
// Like executor_runner --json, with two differences the peer benchmark needs: THREADS reaches
// both the portable kernels (the method's thread pool) and the XNNPACK delegate
// (xnnpack::set_num_threads; executor_runner's --cpu_threads does not set it), and times are
// printed in microseconds with 3 decimals. Each timed run is Method::set_inputs +
// Method::execute, as in executor_runner. Prints one JSON line; the last run's outputs go to
// OUTPUT_PREFIX-<i>.bin. Errors print "ember_runner: ErrorName (0xNN): message", exit 1.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "runtime/platform/log.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"
#include "runtime/tools/registration.h"
#include "runtime/tools/runner_io.h"

namespace ember::runtime {
namespace {

int die(Error err) {
  char buffer[kMaxErrorMessageLength + 64];
  fprintf(stderr, "ember_runner: %s\n", format_error(err, buffer, sizeof(buffer)));
  return 1;
}

int run(int argc, char** argv) {
  if (argc != 7) {
    fprintf(stderr, "usage: ember_runner PROGRAM.pte THREADS WARMUP ITERATIONS OUTPUT_PREFIX INPUTS\n");
    return 2;
  }
  const std::string path = argv[1];
  const int threads = atoi(argv[2]), warmup = atoi(argv[3]), iterations = atoi(argv[4]);
  if (threads < 1 || warmup < 0 || iterations < 1) {
    fprintf(stderr, "ember_runner: THREADS >= 1, WARMUP >= 0, ITERATIONS >= 1\n");
    return 2;
  }
  static FixedKernelRegistry<kDefaultKernelRegistryCapacity> kernels;
  static BackendRegistry backends;
  if (Error err = register_linked(kernels, backends); err != Error::Ok) return die(err);
  if (Error err = backends::xnnpack::set_num_threads(size_t(threads)); err != Error::Ok) return die(err);
  std::unique_ptr<PthreadpoolThreadPool> pool;
  if (threads > 1) pool = std::make_unique<PthreadpoolThreadPool>(size_t(threads));

  const uint64_t load_start = ember_pal_now_ns();
  Module module(path, "");
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  options.method.thread_pool = pool.get();
  module.set_options(options);
  if (Error err = module.load(); err != Error::Ok) return die(err);
  Result<const char*> name = module.program().get_method_name(0);
  if (!name.ok()) return die(name.error());
  Result<Method*> loaded = module.load_method(*name);
  if (!loaded.ok()) return die(loaded.error());
  const double load_ms = double(ember_pal_now_ns() - load_start) / 1e6;
  Method& method = **loaded;

  RunnerInputs inputs;
  if (Error err = build_inputs(method, split(argv[6], ','), {}, &inputs); err != Error::Ok) return die(err);
  const Span<const EValue> values(inputs.values.data(), inputs.values.size());
  std::vector<double> times_us;
  times_us.reserve(size_t(iterations));
  for (int run = 0; run < warmup + iterations; ++run) {
    const uint64_t start = ember_pal_now_ns();
    if (Error err = method.set_inputs(values); err != Error::Ok) return die(err);
    if (Error err = method.execute(); err != Error::Ok) return die(err);
    if (run >= warmup) times_us.push_back(double(ember_pal_now_ns() - start) / 1e3);
  }
  if (Error err = write_outputs(method, argv[5]); err != Error::Ok) return die(err);
  std::sort(times_us.begin(), times_us.end());
  const size_t n = times_us.size();
  const double median = n % 2 ? times_us[n / 2] : (times_us[n / 2 - 1] + times_us[n / 2]) / 2;
  printf("{\"engine\":\"ember\",\"load_ms\":%.3f,\"median_us\":%.3f,\"min_us\":%.3f,\"iterations\":%zu,"
         "\"threads\":%d}\n", load_ms, median, times_us.front(), n, threads);
  return 0;
}

}  // namespace
}  // namespace ember::runtime

int main(int argc, char** argv) { return ember::runtime::run(argc, argv); }
