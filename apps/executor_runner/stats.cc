// Run statistics (see stats.h).
#include "apps/executor_runner/stats.h"

#include <sys/resource.h>
#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstring>

namespace ember::runtime {

double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0;
  const double rank = std::clamp(p, 0.0, 100.0) / 100.0 * double(sorted.size() - 1);
  const size_t lo = size_t(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - double(lo));
}

RunStats compute_stats(const std::vector<double>& runs_us) {
  RunStats s;
  if (runs_us.empty()) return s;
  s.count = runs_us.size();
  s.first_us = runs_us.front();
  double sum = 0;
  for (double v : runs_us) sum += v;
  s.mean_us = sum / double(s.count);
  double squares = 0;  // two passes: no cancellation of sum(x^2) - n*mean^2
  for (double v : runs_us) squares += (v - s.mean_us) * (v - s.mean_us);
  s.stddev_us = std::sqrt(squares / double(s.count));
  std::vector<double> sorted = runs_us;
  std::sort(sorted.begin(), sorted.end());
  s.min_us = sorted.front();
  s.max_us = sorted.back();
  s.p50_us = percentile(sorted, 50);
  s.p90_us = percentile(sorted, 90);
  s.p99_us = percentile(sorted, 99);
  return s;
}

uint64_t peak_rss_kb() {
  struct rusage usage;
  if (getrusage(RUSAGE_SELF, &usage) == 0 && usage.ru_maxrss > 0) return uint64_t(usage.ru_maxrss);
  FILE* f = fopen("/proc/self/status", "r");
  if (f == nullptr) return 0;
  char line[256];
  uint64_t kb = 0;
  while (fgets(line, sizeof(line), f) != nullptr) {
    if (strncmp(line, "VmHWM:", 6) == 0) {
      kb = strtoull(line + 6, nullptr, 10);
      break;
    }
  }
  fclose(f);
  return kb;
}

uint64_t process_cpu_time_ns() {
  struct timespec ts;
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0;
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

void print_stats(FILE* out, double load_us, const RunStats& s, uint64_t rss_kb) {
  fprintf(out, "init: %.3f ms\n", load_us / 1e3);
  fprintf(out, "first run: %.3f ms\n", s.first_us / 1e3);
  fprintf(out, "runs: %zu, mean %.3f ms, std %.3f ms, min %.3f ms, max %.3f ms\n", s.count, s.mean_us / 1e3,
          s.stddev_us / 1e3, s.min_us / 1e3, s.max_us / 1e3);
  fprintf(out, "percentiles: p50 %.3f ms, p90 %.3f ms, p99 %.3f ms\n", s.p50_us / 1e3, s.p90_us / 1e3,
          s.p99_us / 1e3);
  fprintf(out, "peak memory (VmHWM): %.3f MB\n", double(rss_kb) / 1024.0);
}

}  // namespace ember::runtime
