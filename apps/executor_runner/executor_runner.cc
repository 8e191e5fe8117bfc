// executor_runner: loads a .pte, runs one method and reports outputs and
// timings. Takes upstream's flags (--model_path, --data_path, --inputs,
// --output_file, --print_output, --num_executions, --method_name,
// --cpu_threads) plus --input_shapes, --warmup, --json, --profile and
// --list_kernels, --debug FILE.ptdbg (rows named by node, op and source line), --trace
// FILE.json (Chrome trace events) and --summary (time per op type), --dump_intermediates DIR
// (every instruction's outputs as .npy, for //apps/compare), run statistics with
// --duration_s, .npy / --random_inputs inputs, repeated --inputs (a sequence of input sets)
// and --expected/--atol/--rtol: docs/profiling.md; --bundled FILE.bpte runs a bundled
// program's test cases instead (bundled_runner.h). On failure prints
// "executor_runner: ErrorName (0xNN): message" once and exits 1; bad flags
// (--num_executions < 1, --warmup < 0, --cpu_threads 0 or < -1) exit 2; outputs outside
// --expected's tolerance exit 3.
// --cpu_threads above the core count is capped with a warning; it sets the portable kernels' thread
// pool and the XNNPACK delegate's thread count alike. Without --inputs, tensor
// inputs are ones (upstream's default) and a note says so. Input files must be regular
// files of exactly the input's byte size; anything else is refused before it is read.
// The whole tool is executor_runner_main() (executor_runner.h), so a runner with an app's
// own kernels is a three-line main (examples/custom_op/custom_op_runner_main.cc).
#include <gflags/gflags.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "runtime/core/diagnostics.h"
#include "runtime/module/module.h"
#include "runtime/platform/log.h"
#include "runtime/threadpool/pthreadpool_thread_pool.h"
#include "apps/executor_runner/bundled_runner.h"
#include "apps/common/path_collision.h"
#include "apps/common/unknown_flags.h"
#include "apps/common/printable.h"
#include "apps/diagnostics/debug_info.h"
#include "apps/diagnostics/dump.h"
#include "apps/executor_runner/output_check.h"
#include "apps/executor_runner/executor_runner.h"
#include "apps/executor_runner/profile_report.h"
#include "apps/executor_runner/registration.h"
#include "apps/executor_runner/runner_io.h"
#include "apps/executor_runner/stats.h"
#include "apps/diagnostics/trace_writer.h"

DEFINE_string(model_path, "model.pte", "The program file (.pte).");
DEFINE_string(data_path, "", "External data (.ptd) for EXTERNAL tensors.");
DEFINE_string(inputs, "", "Comma-separated input files (raw bytes or .npy), one per input (raw scalars 8 bytes, "
              "bools 1). Repeat the flag for a sequence of input sets, run in order.");
DEFINE_string(output_file, "", "Write tensor output i to <output_file>-<i>.bin.");
DEFINE_string(print_output, "summary", "none, summary or all.");
DEFINE_int32(num_executions, 1, "Timed executions.");
DEFINE_string(method_name, "", "Method to run (default: the first).");
DEFINE_int32(cpu_threads, -1, "Threads for kernels (-1: one per core, 1: no pool).");
DEFINE_string(input_shapes, "", "Actual shapes of dynamic inputs: '1,3,192,256;8' (empty entry = declared).");
DEFINE_int32(warmup, 0, "Untimed executions before the timed ones.");
DEFINE_bool(json, false, "Print one JSON line with timings and outputs.");
DEFINE_bool(profile, false, "Print a per-instruction time table.");
DEFINE_string(debug, "", "Provenance sidecar from lower --debug_out: name profile rows by node, op and source.");
DEFINE_string(trace, "", "Write a Chrome trace-event JSON timeline (Perfetto, chrome://tracing) to this file.");
DEFINE_bool(summary, false, "Print time per op type.");
DEFINE_bool(list_kernels, false, "List registered kernels and backends, then exit.");
DEFINE_string(dump_intermediates, "", "Write every instruction's outputs of the first execution as .npy into this "
              "directory, with index.json (names from --debug).");
DEFINE_double(duration_s, 0, "Run timed executions for this many seconds (at least one; --num_executions, when "
              "given, caps them).");
DEFINE_double(progress_s, 5, "Seconds between progress lines on stderr during long runs.");
DEFINE_bool(random_inputs, false, "Fill tensor inputs without files with seeded random values.");
DEFINE_uint64(random_seed, 0, "Seed of --random_inputs.");
DEFINE_string(expected, "", "Comma-separated expected output files (raw or .npy), checked after the last execution.");
DEFINE_double(atol, 1e-5, "Absolute tolerance of --expected.");
DEFINE_double(rtol, 1e-5, "Relative tolerance of --expected.");
DEFINE_uint64(max_planned_memory_mb, 8192, "Refuse a method whose planned buffers add up to more than this many MiB "
              "(checked before they are reserved; raise it for a trusted program that plans more).");
DEFINE_uint64(max_trace_events, 1000000, "--trace keeps at most this many events (about 200 bytes each); later "
              "executions are not traced and a warning says so.");

namespace ember::runtime {
namespace {
// Every --inputs value, in order (gflags keeps only the last): collected in main().
std::vector<std::string>& input_set_flags() {
  static std::vector<std::string> sets;
  return sets;
}
// Timed executions --duration_s may run when --num_executions is not given.
constexpr size_t kMaxTimedRuns = 1000000;
}  // namespace
}  // namespace ember::runtime

namespace ember::runtime {
namespace {

// Prints "executor_runner: ErrorName (0xNN): message" once and returns `status` (1: the
// run failed, 2: bad usage).
int die(Error err, int status = 1) {
  char buffer[kMaxErrorMessageLength + 64];
  // Messages quote names from the file (operators, backends): escaped (issue #33).
  fprintf(stderr, "executor_runner: %s\n", apps::printable_message(format_error(err, buffer, sizeof(buffer))).c_str());
  return status;
}

// Flag values that make no sense are refused before any work; --cpu_threads above the
// core count is capped to it with a warning (a crafted flag must not start 100,000 threads).
Error check_flags() {
  if (FLAGS_num_executions < 1) {
    return fail(Error::InvalidArgument, "--num_executions must be at least 1, got %d", FLAGS_num_executions);
  }
  if (FLAGS_warmup < 0) return fail(Error::InvalidArgument, "--warmup must be 0 or more, got %d", FLAGS_warmup);
  if (!(FLAGS_duration_s >= 0) || FLAGS_duration_s > 1e7) {
    return fail(Error::InvalidArgument, "--duration_s must be between 0 and 1e7 seconds, got %g", FLAGS_duration_s);
  }
  if (!(FLAGS_progress_s > 0)) return fail(Error::InvalidArgument, "--progress_s must be positive, got %g", FLAGS_progress_s);
  if (!(FLAGS_atol >= 0) || !(FLAGS_rtol >= 0)) {
    return fail(Error::InvalidArgument, "--atol and --rtol must be 0 or more, got %g and %g", FLAGS_atol, FLAGS_rtol);
  }
  if (FLAGS_random_inputs && !FLAGS_inputs.empty()) {
    return fail(Error::InvalidArgument, "--random_inputs and --inputs exclude each other");
  }
  if (FLAGS_max_planned_memory_mb == 0 || FLAGS_max_planned_memory_mb > (uint64_t{1} << 40)) {
    return fail(Error::InvalidArgument, "--max_planned_memory_mb must be between 1 and 2^40, got %llu",
                static_cast<unsigned long long>(FLAGS_max_planned_memory_mb));
  }
  if (FLAGS_max_trace_events == 0) return fail(Error::InvalidArgument, "--max_trace_events must be at least 1");
  if (FLAGS_cpu_threads == 0 || FLAGS_cpu_threads < -1) {
    return fail(Error::InvalidArgument, "--cpu_threads must be -1 (one per core) or at least 1, got %d",
                FLAGS_cpu_threads);
  }
  const long cores = std::max(1L, sysconf(_SC_NPROCESSORS_ONLN));
  if (FLAGS_cpu_threads > cores) {
    fprintf(stderr, "executor_runner: warning: --cpu_threads %d is more than the %ld core(s); using %ld\n",
            FLAGS_cpu_threads, cores, cores);
    FLAGS_cpu_threads = int(cores);
  }
  return Error::Ok;
}

// A torch.export .pt2 is a zip archive: say so instead of "bad identifier".
bool looks_like_pt2(const std::string& path) {
  struct stat st;
  if (stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return false;  // a FIFO would block fopen
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  char head[4] = {};
  const size_t n = fread(head, 1, 4, f);
  fclose(f);
  return n == 4 && memcmp(head, "PK\3\4", 4) == 0;
}

double us_since(uint64_t start_ns) { return double(ember_pal_now_ns() - start_ns) / 1e3; }

// A sidecar from another lowering names the wrong nodes: say so (sizes and counts only;
// the runtime does not hash the file).
void warn_if_stale(const DebugInfo& debug, const Method& method) {
  struct stat st;
  if (debug.pte_size() != 0 && stat(FLAGS_model_path.c_str(), &st) == 0 && uint64_t(st.st_size) != debug.pte_size()) {
    fprintf(stderr, "executor_runner: warning: --debug '%s' was written for a %llu-byte .pte, '%s' has %lld bytes\n",
            FLAGS_debug.c_str(), static_cast<unsigned long long>(debug.pte_size()), FLAGS_model_path.c_str(),
            static_cast<long long>(st.st_size));
  }
  const MethodDebug* m = debug.method(method.name());
  if (m != nullptr && m->instructions.size() != method.num_instructions()) {
    fprintf(stderr, "executor_runner: warning: --debug '%s' lists %zu instructions for '%s', the method has %zu\n",
            FLAGS_debug.c_str(), m->instructions.size(), apps::printable(method.name()).c_str(), method.num_instructions());
  }
}

int list_kernels(const KernelRegistry& kernels, const BackendRegistry& backends) {
  for (const Kernel& k : kernels.kernels()) printf("kernel %s\n", k.name);
  for (size_t i = 0; i < backends.size(); ++i) printf("backend %s\n", backends.name_at(i));
  printf("%zu kernels, %zu backends\n", kernels.size(), backends.size());
  return 0;
}

struct Timings {
  double load_us = 0;
  std::vector<double> runs_us;  // timed executions, in order
  std::vector<double> cpu_us;   // the process's CPU time over each of them (all its threads)
};

// Whether the timed phase is over after `runs` timed executions that started at `start_ns`:
// --num_executions of them, or with --duration_s until the budget is spent (capped by an
// explicit --num_executions, else by kMaxTimedRuns).
bool timed_phase_done(size_t runs, uint64_t start_ns, uint64_t now_ns) {
  if (FLAGS_duration_s <= 0) return runs >= size_t(FLAGS_num_executions);
  if (runs == 0) return false;
  const bool count_given = !gflags::GetCommandLineFlagInfoOrDie("num_executions").is_default;
  if (runs >= (count_given ? size_t(FLAGS_num_executions) : kMaxTimedRuns)) return true;
  return double(now_ns - start_ns) >= FLAGS_duration_s * 1e9;
}

// Runs --warmup untimed and the timed executions (timed_phase_done), cycling through the
// input sets in order. With `trace`, every timed execution and its instructions go on the
// timeline; with `dump`, the first execution's intermediates are written.
Error run_method(Method& method, const std::vector<RunnerInputs>& sets, std::vector<InstructionProfile>* profile,
                 Timings* timings, TraceWriter* trace, const DebugInfo* debug, DelegateOpRecorder* ops,
                 IntermediateDumper* dump) {
  const bool profiling = FLAGS_profile || FLAGS_summary || trace != nullptr;
  std::vector<uint64_t> calls_before(profile->size());
  uint64_t timed_start = 0, last_progress = 0;
  for (size_t run = 0;; ++run) {
    const bool timed = run >= size_t(FLAGS_warmup);
    const uint64_t now = ember_pal_now_ns();
    if (timed && run == size_t(FLAGS_warmup)) timed_start = last_progress = now;
    if (timed && timed_phase_done(timings->runs_us.size(), timed_start, now)) break;
    if (timed && double(now - last_progress) >= FLAGS_progress_s * 1e9) {
      last_progress = now;
      const RunStats so_far = compute_stats(timings->runs_us);
      fprintf(stderr, "executor_runner: progress: %zu runs in %.1f s, mean %.3f ms, min %.3f ms\n", so_far.count,
              double(now - timed_start) / 1e9, so_far.mean_us / 1e3, so_far.min_us / 1e3);
    }
    const RunnerInputs& inputs = sets[run % sets.size()];
    method.set_profile(profiling && timed ? profile->data() : nullptr);
    method.set_delegate_profiler(profiling && timed ? ops : nullptr);
    method.set_instruction_observer(run == 0 ? dump : nullptr);
    for (size_t i = 0; i < profile->size(); ++i) calls_before[i] = (*profile)[i].calls;
    // The CPU clock is a system call (~0.1-0.3 us): read outside the wall-clock interval.
    const uint64_t cpu_start = process_cpu_time_ns();
    const uint64_t start = ember_pal_now_ns();
    EMBER_TRY(method.set_inputs(Span<const EValue>(inputs.values.data(), inputs.values.size())));
    EMBER_TRY(method.execute());
    const uint64_t end = ember_pal_now_ns();
    const uint64_t cpu_end = process_cpu_time_ns();
    if (run == 0 && dump != nullptr) {
      method.set_instruction_observer(nullptr);
      EMBER_TRY(dump->finish(method, FLAGS_model_path));
      fprintf(stderr, "executor_runner: dumped %zu values of execution 0 to '%s' (index.json)%s\n",
              dump->num_entries(), FLAGS_dump_intermediates.c_str(), timed ? "; its time includes the dump" : "");
    }
    if (timed) timings->runs_us.push_back(double(end - start) / 1e3);
    if (timed) timings->cpu_us.push_back(double(cpu_end - cpu_start) / 1e3);
    if (timed && trace != nullptr) {
      trace_execution(trace, method, *profile, calls_before, debug, int(run) - FLAGS_warmup, start, end, ops);
    }
    if (timed) ops->fold();
  }
  method.set_profile(nullptr);
  method.set_delegate_profiler(nullptr);
  method.set_instruction_observer(nullptr);
  return Error::Ok;
}

// Times are microseconds with 3 decimals (1 ns steps; the clock is ns), so a 40 ns run of a
// tiny program reads 0.040, not 0.0000. min_us is the fastest timed run: the least noisy
// figure on a shared machine. No _ms fields: nothing reads them (docs/decisions.md).
// median_us is p50_us (numpy's linear percentile; the mean of the two middle runs for an
// even count); the statistics are stats.h's. cpu_median_us / cpu_min_us / cpu_mean_us are the
// process's CPU time per timed run (process_cpu_time_ns around set_inputs + execute, every
// thread counted): on a loaded machine the wall times include time spent preempted, the CPU
// times do not (docs/decisions.md).
void print_json(const Method& method, const Timings& t, const RunStats& s, uint64_t rss_kb, size_t sets) {
  const RunStats cpu = compute_stats(t.cpu_us);
  // The method name comes from the file: nlohmann::json escapes quotes and control bytes.
  printf("{\"load_us\":%.3f,\"first_us\":%.3f,\"median_us\":%.3f,\"min_us\":%.3f,\"max_us\":%.3f,"
         "\"mean_us\":%.3f,\"stddev_us\":%.3f,\"p50_us\":%.3f,\"p90_us\":%.3f,\"p99_us\":%.3f,"
         "\"cpu_median_us\":%.3f,\"cpu_min_us\":%.3f,\"cpu_mean_us\":%.3f,"
         "\"peak_rss_kb\":%llu,\"warmup\":%d,\"input_sets\":%zu,"
         "\"iterations\":%zu,\"method\":%s,\"outputs\":%s}\n",
         t.load_us, s.first_us, s.p50_us, s.min_us, s.max_us, s.mean_us, s.stddev_us, s.p50_us, s.p90_us, s.p99_us,
         cpu.p50_us, cpu.min_us, cpu.mean_us,
         static_cast<unsigned long long>(rss_kb), FLAGS_warmup, sets, s.count,
         nlohmann::json(method.name()).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str(),
         outputs_json(method).c_str());
}

// The message of `err` followed by "; " and `hint` (the next step for the user).
Error with_hint(Error err, const std::string& hint) {
  const std::string message = last_error_message();
  return fail(err, "%s; %s", message.c_str(), hint.c_str());
}

// Issue #33: a failed method load says what to do next: the flag that raises the plan budget,
// --data_path for a program whose weights are in a .ptd, the methods the program has, where
// to find the kernels a build has.
Error with_next_step(Error err, Module& module) {
  const char* message = last_error_message();
  if (err == Error::MemoryAllocationFailed && std::strstr(message, "planned-memory budget") != nullptr) {
    return annotate(err, "--max_planned_memory_mb %llu", static_cast<unsigned long long>(FLAGS_max_planned_memory_mb));
  }
  if (std::strstr(message, "no data map (.ptd) was given") != nullptr && FLAGS_data_path.empty()) {
    return with_hint(err, "pass the .ptd written with the program: --data_path FILE.ptd");
  }
  if (err == Error::NotFound && std::strstr(message, "program has no method") != nullptr) {
    Result<std::vector<std::string>> names = module.method_names();
    if (names.ok()) {
      std::string list;
      for (const std::string& n : *names) list += (list.empty() ? "'" : ", '") + apps::printable(n) + "'";
      return with_hint(err, "its methods: " + (list.empty() ? std::string("none") : list) + " (--method_name)");
    }
  }
  if (err == Error::OperatorMissing) {
    return with_hint(err, "'executor_runner --list_kernels' lists this build's kernels; link the kernel library "
                          "that provides it (a custom runner: docs/custom_ops.md) or lower with a recipe that "
                          "avoids it");
  }
  return err;
}

// Loads the program and the method named by --method_name (default: the first).
// Sets *program_loaded_ns when the program is loaded (the method's init follows).
Result<Method*> load(Module& module, KernelRegistry& kernels, BackendRegistry& backends, ThreadPool* pool,
                     uint64_t* program_loaded_ns) {
  Module::Options options;
  options.method.kernels = &kernels;
  options.method.backends = &backends;
  options.method.thread_pool = pool;
  options.max_planned_memory_bytes = FLAGS_max_planned_memory_mb << 20;
  module.set_options(options);
  if (Error err = module.load(); err != Error::Ok) {
    if (looks_like_bundled(FLAGS_model_path)) {
      return fail(Error::InvalidProgram, "'%s': this is a bundled program (.bpte): use --bundled %s",
                  FLAGS_model_path.c_str(), FLAGS_model_path.c_str());
    }
    if (looks_like_pt2(FLAGS_model_path)) {
      return fail(Error::InvalidProgram, "'%s' is a .pt2 (torch.export archive), not a program: lower it first "
                  "(lower MODEL.pt2 -o MODEL.pte)", FLAGS_model_path.c_str());
    }
    return annotate(err, "loading '%s'", FLAGS_model_path.c_str());
  }
  *program_loaded_ns = ember_pal_now_ns();
  std::string name = FLAGS_method_name;
  if (name.empty()) {
    Result<const char*> first = module.program().get_method_name(0);
    if (!first.ok()) return first.error();
    name = *first;
  }
  Result<Method*> method = module.load_method(name);
  if (method.ok()) return method;
  return with_next_step(method.error(), module);
}

// Every file this run writes (--output_file's, --trace, --dump_intermediates' index.json)
// against every file it reads and each other, before anything runs (issue #33: --output_file x
// overwrote the input x-0.bin, --trace named the model). Bad usage (status 2) on a collision.
Error check_run_paths(const Method& method, const std::vector<std::string>& set_flags) {
  std::vector<apps::PathUse> inputs = {{"--model_path", FLAGS_model_path}};
  if (!FLAGS_data_path.empty()) inputs.push_back({"--data_path", FLAGS_data_path});
  if (!FLAGS_debug.empty()) inputs.push_back({"--debug", FLAGS_debug});
  for (const std::string& set : set_flags) {
    if (set.empty()) continue;
    for (const std::string& file : split(set, ',')) inputs.push_back({"--inputs", file});
  }
  if (!FLAGS_expected.empty()) {
    for (const std::string& file : split(FLAGS_expected, ',')) inputs.push_back({"--expected", file});
  }
  std::vector<apps::PathUse> outputs;
  if (!FLAGS_output_file.empty()) {
    for (const std::string& path : output_paths(method, FLAGS_output_file)) outputs.push_back({"--output_file", path});
  }
  if (!FLAGS_trace.empty()) outputs.push_back({"--trace", FLAGS_trace});
  if (!FLAGS_dump_intermediates.empty()) {
    outputs.push_back({"--dump_intermediates", FLAGS_dump_intermediates + "/index.json"});
  }
  return apps::check_path_collisions(inputs, outputs);
}

Result<PrintMode> print_mode() {
  if (FLAGS_print_output == "none") return PrintMode::None;
  if (FLAGS_print_output == "all") return PrintMode::All;
  if (FLAGS_print_output == "summary") return PrintMode::Summary;
  return fail(Error::InvalidArgument, "--print_output must be none, summary or all, not '%s'",
              FLAGS_print_output.c_str());
}

int run(KernelRegistration extra_kernels) {
  static FixedKernelRegistry<kDefaultKernelRegistryCapacity> kernels;
  static BackendRegistry backends;
  if (Error err = register_linked(kernels, backends); err != Error::Ok) return die(err);
  if (extra_kernels != nullptr) {  // an app's own runner: its custom operators' kernels
    if (Error err = extra_kernels(kernels); err != Error::Ok) return die(err);
  }
  if (FLAGS_list_kernels) return list_kernels(kernels, backends);
  Result<PrintMode> mode = print_mode();
  if (!mode.ok()) return die(mode.error());
  std::vector<std::vector<int32_t>> shapes;
  if (Error err = parse_shapes(FLAGS_input_shapes, &shapes); err != Error::Ok) return die(err);
  std::unique_ptr<PthreadpoolThreadPool> pool;
  if (FLAGS_cpu_threads != 1) {  // check_flags(): -1 or 2..cores
    pool = std::make_unique<PthreadpoolThreadPool>(FLAGS_cpu_threads < 0 ? 0 : size_t(FLAGS_cpu_threads));
  }
  // XNNPACK delegates run on their own pthreadpool: same thread count (it was always 1).
  const size_t threads = pool != nullptr ? pool->num_threads() : 1;
  if (Error err = set_linked_backend_threads(threads); err != Error::Ok) return die(err);
  if (bundled_mode()) return run_bundled(FLAGS_method_name, FLAGS_json, kernels, backends, pool.get());  // bundled_runner.h
  Timings timings;
  const uint64_t load_start = ember_pal_now_ns();
  Module module(FLAGS_model_path, FLAGS_data_path);
  uint64_t program_loaded = 0;
  Result<Method*> loaded = load(module, kernels, backends, pool.get(), &program_loaded);
  if (!loaded.ok()) return die(loaded.error());
  const uint64_t load_end = ember_pal_now_ns();
  timings.load_us = us_since(load_start);
  std::unique_ptr<TraceWriter> trace;
  if (!FLAGS_trace.empty()) {
    trace = std::make_unique<TraceWriter>(size_t(FLAGS_max_trace_events));
    trace->complete("load program", "load", load_start, program_loaded, {{"path", FLAGS_model_path}});
    trace->complete("init method", "load", program_loaded, load_end, {{"method", (*loaded)->name()}});
  }
  std::unique_ptr<DebugInfo> debug;
  if (!FLAGS_debug.empty()) {
    Result<DebugInfo> info = DebugInfo::load(FLAGS_debug);
    if (!info.ok()) return die(info.error());
    debug = std::make_unique<DebugInfo>(std::move(info.get()));
    warn_if_stale(*debug, **loaded);
  }
  Method& method = **loaded;
  EMBER_LOG(Info, "Model %s, method %s loaded in %.3f ms", FLAGS_model_path.c_str(), apps::printable(method.name()).c_str(),
            timings.load_us / 1e3);  // the name comes from the file: escaped
  std::vector<std::string> set_flags = input_set_flags();
  if (set_flags.empty()) set_flags.push_back(FLAGS_inputs);
  if (set_flags.size() == 1 && set_flags[0].empty() && method.inputs_size() > 0) {  // upstream's default, said aloud (docs/decisions.md)
    fprintf(stderr, "executor_runner: note: no --inputs: tensor inputs are filled with %s, scalars keep "
            "their exported values (%zu input(s))\n", FLAGS_random_inputs ? "seeded random values" : "ones",
            method.inputs_size());
  }
  if (Error err = check_run_paths(method, set_flags); err != Error::Ok) return die(err, 2);
  std::vector<RunnerInputs> sets(set_flags.size());
  InputFill fill;
  fill.random = FLAGS_random_inputs;
  fill.seed = FLAGS_random_seed;
  for (size_t k = 0; k < sets.size(); ++k) {
    const std::vector<std::string> files = set_flags[k].empty() ? std::vector<std::string>() : split(set_flags[k], ',');
    if (Error err = build_inputs(method, files, shapes, &sets[k], fill); err != Error::Ok) {
      return die(sets.size() > 1 ? annotate(err, "input set %zu", k) : err);
    }
    const std::string text = describe_inputs(sets[k]);
    for (const std::string& line : split(text, '\n')) {
      if (line.empty()) continue;
      if (sets.size() > 1) fprintf(stderr, "executor_runner: set %zu %s\n", k, line.c_str());
      else fprintf(stderr, "executor_runner: %s\n", line.c_str());
    }
  }
  std::unique_ptr<IntermediateDumper> dump;
  if (!FLAGS_dump_intermediates.empty()) {
    dump = std::make_unique<IntermediateDumper>(method, FLAGS_dump_intermediates, debug.get());
    if (Error err = dump->prepare(); err != Error::Ok) return die(err);
  }
  std::vector<InstructionProfile> profile(method.num_instructions());
  // Sized once, here, and only when profiling: record() never allocates.
  DelegateOpRecorder ops(FLAGS_profile || FLAGS_summary || !FLAGS_trace.empty() ? size_t{1} << 16 : 0);
  if (Error err = run_method(method, sets, &profile, &timings, trace.get(), debug.get(), &ops, dump.get());
      err != Error::Ok) {
    return die(err);
  }
  if (!FLAGS_output_file.empty()) {
    if (Error err = write_outputs(method, FLAGS_output_file); err != Error::Ok) return die(err);
  }
  print_outputs(method, *mode);
  if (FLAGS_profile) print_profile(method, profile, debug.get(), &ops);
  if (FLAGS_summary) print_summary(method, profile, debug.get());
  if (trace != nullptr) {
    if (trace->dropped() > 0) {
      fprintf(stderr, "executor_runner: warning: --trace kept the first %zu events and dropped %llu (--max_trace_events)\n",
              trace->size(), static_cast<unsigned long long>(trace->dropped()));
    }
    if (Error err = trace->write(FLAGS_trace); err != Error::Ok) return die(err);
  }
  EMBER_LOG(Info, "Model executed successfully %zu time(s)", timings.runs_us.size());
  const RunStats stats = compute_stats(timings.runs_us);
  const uint64_t rss_kb = peak_rss_kb();
  if (!FLAGS_json) print_stats(stderr, timings.load_us, stats, rss_kb);
  if (!FLAGS_json && !timings.cpu_us.empty()) {
    const RunStats cpu = compute_stats(timings.cpu_us);
    fprintf(stderr, "cpu time per run (all threads): median %.3f ms, min %.3f ms, mean %.3f ms\n",
            cpu.p50_us / 1e3, cpu.min_us / 1e3, cpu.mean_us / 1e3);
  }
  if (FLAGS_json) print_json(method, timings, stats, rss_kb, sets.size());
  if (!FLAGS_expected.empty()) {
    Result<OutputCheck> check = check_outputs(method, split(FLAGS_expected, ','), FLAGS_atol, FLAGS_rtol);
    if (!check.ok()) return die(check.error());
    // Outputs within tolerance as "output i: ok ..."; each mismatch once, prefixed.
    for (const std::string& line : split(check->report, '\n')) {
      if (line.empty()) continue;
      const bool ok_line = line.find(": ok (") != std::string::npos;
      fprintf(stderr, "%s%s\n", ok_line ? "" : "executor_runner: ", line.c_str());
    }
    if (!check->ok) return 3;
  }
  return 0;
}

}  // namespace

int executor_runner_main(int argc, char** argv, KernelRegistration extra_kernels) {
  gflags::SetUsageMessage("executor_runner --model_path model.pte [--inputs a.bin,b.bin] [--json]");
  // --inputs may repeat (a sequence of input sets); gflags keeps only the last value.
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--") break;
    if ((a == "--inputs" || a == "-inputs") && i + 1 < argc) {
      ember::runtime::input_set_flags().push_back(argv[++i]);
    } else if (a.rfind("--inputs=", 0) == 0 || a.rfind("-inputs=", 0) == 0) {
      ember::runtime::input_set_flags().push_back(a.substr(a.find('=') + 1));
    }
  }
  if (ember::runtime::Error err = ember::apps::check_unknown_flags(argc, argv); err != ember::runtime::Error::Ok) {
    return ember::runtime::die(err, 2);
  }
  gflags::ParseCommandLineFlags(&argc, &argv, true);
  if (argc > 1) {
    return ember::runtime::die(
        ember::runtime::fail(ember::runtime::Error::InvalidArgument, "unexpected argument '%s'", argv[1]), 2);
  }
  if (ember::runtime::Error err = ember::runtime::check_flags(); err != ember::runtime::Error::Ok) {
    return ember::runtime::die(err, 2);
  }
  if (ember::runtime::Error err = ember::runtime::check_bundled_flags(); err != ember::runtime::Error::Ok) {
    return ember::runtime::die(err, 2);
  }
  // Under `bazel run`, relative paths are the caller's: work from their directory.
  if (const char* cwd = getenv("BUILD_WORKING_DIRECTORY"); cwd != nullptr && *cwd != '\0') {
    if (chdir(cwd) != 0) {
      fprintf(stderr, "executor_runner: cannot enter BUILD_WORKING_DIRECTORY '%s'\n", cwd);
      return 2;
    }
  }
  return ember::runtime::run(extra_kernels);
}

}  // namespace ember::runtime
