// executor_runner's timing statistics, like TFLite benchmark_model's and onnxruntime_perf_test's:
// mean, standard deviation, percentiles, min and max over the timed executions, and the
// process's peak resident memory. Pure functions over the recorded times; nothing here runs
// inside execute().
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <vector>

namespace ember::runtime {

struct RunStats {
  size_t count = 0;
  double first_us = 0;   // the first timed execution
  double mean_us = 0;
  double stddev_us = 0;  // population standard deviation (divides by count, as benchmark_model)
  double min_us = 0, max_us = 0;
  double p50_us = 0, p90_us = 0, p99_us = 0;  // linear interpolation between ranks (numpy's default)
};

// `runs_us` in execution order; an empty list gives all zeros.
RunStats compute_stats(const std::vector<double>& runs_us);

// The p-th percentile (0..100) of `sorted` (ascending, non-empty), interpolating linearly
// between the two nearest ranks: numpy.percentile's default ("linear").
double percentile(const std::vector<double>& sorted, double p);

// Peak resident set size of this process in KiB: getrusage's ru_maxrss (Linux reports KiB),
// or VmHWM from /proc/self/status when getrusage fails; 0 when neither is available.
uint64_t peak_rss_kb();

// CPU time consumed so far by every thread of this process, in nanoseconds
// (clock_gettime(CLOCK_PROCESS_CPUTIME_ID): the scheduler's exact run time, not tick samples);
// 0 when the clock is unavailable. The difference around one execution is what the execution
// cost on the CPU, whatever else the machine runs: time spent preempted is not counted, time
// in the process's other threads (a thread pool's workers, spinning included) is.
uint64_t process_cpu_time_ns();

// The text block: "init 12.345 ms, first 1.234 ms, ..." lines (times in ms, 3 decimals).
void print_stats(FILE* out, double load_us, const RunStats& s, uint64_t rss_kb);

}  // namespace ember::runtime
