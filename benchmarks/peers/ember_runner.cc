// ember_runner: one Ember measurement for run_peers.py (one process per run).
//
//   ember_runner PROGRAM.pte THREADS WARMUP ITERATIONS OUTPUT_PREFIX INPUT.bin[,INPUT.bin...]
//
// Like executor_runner --json (whose --cpu_threads also reaches the portable kernels' pool and
// the XNNPACK delegate), with what the peer benchmark needs besides: times are printed in
// microseconds with 3 decimals. Each timed run is Method::set_inputs +
// Method::execute, as in executor_runner; next to its wall time, the process's CPU time over
// the run (process_cpu_time_ns: every thread, preemption not counted) gives cpu_median_us /
// cpu_min_us (cpu_clock_us: what the clock reads around nothing), and "os_threads" is the
// process's thread count after the runs. Prints one JSON line; the last run's outputs go to
// OUTPUT_PREFIX-<i>.bin. Errors print "ember_runner: ErrorName (0xNN): message", exit 1.
#include <dirent.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "apps/common/printable.h"
#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "runtime/platform/log.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"
#include "apps/executor_runner/registration.h"
#include "apps/executor_runner/runner_io.h"
#include "apps/executor_runner/stats.h"

namespace ember::runtime {
namespace {

int die(Error err) {
  char buffer[kMaxErrorMessageLength + 64];
  // Messages quote names from the file (operators, backend ids): escaped (issue #33).
  fprintf(stderr, "ember_runner: %s\n", apps::printable_message(format_error(err, buffer, sizeof(buffer))).c_str());
  return 1;
}

// Threads of this process (/proc/self/task entries); -1 when unreadable.
int os_threads() {
  DIR* dir = opendir("/proc/self/task");
  if (dir == nullptr) return -1;
  int n = 0;
  while (const dirent* e = readdir(dir)) n += e->d_name[0] != '.';
  closedir(dir);
  return n;
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
  // What the CPU clock itself adds to one run's CPU time (two reads around two wall-clock
  // reads, nothing between): reported so figures of a few microseconds can be read.
  std::vector<double> empty_us;
  for (int i = 0; i < 201; ++i) {
    const uint64_t c0 = process_cpu_time_ns();
    volatile uint64_t wall = ember_pal_now_ns();
    wall = ember_pal_now_ns();
    (void)wall;
    empty_us.push_back(double(process_cpu_time_ns() - c0) / 1e3);
  }
  std::vector<double> times_us, cpu_us;
  times_us.reserve(size_t(iterations));
  cpu_us.reserve(size_t(iterations));
  for (int run = 0; run < warmup + iterations; ++run) {
    const uint64_t cpu_start = process_cpu_time_ns();  // a system call: outside the wall interval
    const uint64_t start = ember_pal_now_ns();
    if (Error err = method.set_inputs(values); err != Error::Ok) return die(err);
    if (Error err = method.execute(); err != Error::Ok) return die(err);
    const uint64_t end = ember_pal_now_ns();
    const uint64_t cpu_end = process_cpu_time_ns();
    if (run >= warmup) {
      times_us.push_back(double(end - start) / 1e3);
      cpu_us.push_back(double(cpu_end - cpu_start) / 1e3);
    }
  }
  if (Error err = write_outputs(method, argv[5]); err != Error::Ok) return die(err);
  const RunStats wall = compute_stats(times_us), cpu = compute_stats(cpu_us);
  printf("{\"engine\":\"ember\",\"load_ms\":%.3f,\"median_us\":%.3f,\"min_us\":%.3f,\"cpu_median_us\":%.3f,"
         "\"cpu_min_us\":%.3f,\"cpu_mean_us\":%.3f,\"cpu_clock_us\":%.3f,\"iterations\":%zu,\"threads\":%d,\"os_threads\":%d}\n",
         load_ms, wall.p50_us, wall.min_us, cpu.p50_us, cpu.min_us, cpu.mean_us, compute_stats(empty_us).p50_us, wall.count, threads, os_threads());
  return 0;
}

}  // namespace
}  // namespace ember::runtime

int main(int argc, char** argv) { return ember::runtime::run(argc, argv); }
