// Run statistics against values worked out by hand (and, for the percentiles, what
// numpy.percentile's default "linear" method gives: rank = p/100 * (n - 1)).
#include "apps/executor_runner/stats.h"

#include <gtest/gtest.h>

#include <time.h>

#include <vector>

namespace ember::runtime {
namespace {

TEST(Stats, MeanStddevMinMaxFirst) {
  // 2, 4, 4, 4, 5, 5, 7, 9: mean 5, population variance 4, std 2 (the textbook example).
  const RunStats s = compute_stats({9, 2, 4, 4, 4, 5, 5, 7});
  EXPECT_EQ(s.count, 8u);
  EXPECT_DOUBLE_EQ(s.first_us, 9);
  EXPECT_DOUBLE_EQ(s.mean_us, 5);
  EXPECT_DOUBLE_EQ(s.stddev_us, 2);
  EXPECT_DOUBLE_EQ(s.min_us, 2);
  EXPECT_DOUBLE_EQ(s.max_us, 9);
  // sorted 2 4 4 4 5 5 7 9; p50: rank 3.5 -> (4 + 5) / 2; p90: rank 6.3 -> 7 + 0.3 * 2;
  // p99: rank 6.93 -> 7 + 0.93 * 2.
  EXPECT_DOUBLE_EQ(s.p50_us, 4.5);
  EXPECT_DOUBLE_EQ(s.p90_us, 7.6);
  EXPECT_NEAR(s.p99_us, 8.86, 1e-12);
}

TEST(Stats, OneRunAndNone) {
  const RunStats one = compute_stats({3});
  EXPECT_DOUBLE_EQ(one.p99_us, 3);
  EXPECT_DOUBLE_EQ(one.stddev_us, 0);
  const RunStats none = compute_stats({});
  EXPECT_EQ(none.count, 0u);
  EXPECT_DOUBLE_EQ(none.mean_us, 0);
}

TEST(Stats, PercentileEnds) {
  const std::vector<double> sorted = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  EXPECT_DOUBLE_EQ(percentile(sorted, 0), 1);
  EXPECT_DOUBLE_EQ(percentile(sorted, 100), 10);
  EXPECT_DOUBLE_EQ(percentile(sorted, 50), 5.5);
  EXPECT_DOUBLE_EQ(percentile(sorted, 90), 9.1);  // rank 8.1
}

TEST(Stats, PeakRssGrowsWithTouchedMemory) {
  const uint64_t before = peak_rss_kb();
  ASSERT_GT(before, 0u);
  std::vector<char> big(64 << 20, 1);  // 64 MiB, written, so resident
  volatile char sink = big[size_t(12345)];
  (void)sink;
  EXPECT_GE(peak_rss_kb(), before + 60 * 1024);
}

uint64_t wall_ns() {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1000000000u + uint64_t(ts.tv_nsec);
}

// A wall clock would count the sleep; a CPU clock counts the busy loop and not the sleep, and
// one busy thread never uses more CPU time than the wall time it ran for.
TEST(Stats, ProcessCpuTimeCountsWorkNotSleep) {
  const uint64_t cpu0 = process_cpu_time_ns(), wall0 = wall_ns();
  ASSERT_GT(cpu0, 0u);
  volatile uint64_t sink = 0;
  while (wall_ns() - wall0 < 20000000) sink = sink + 1;  // 20 ms busy
  const uint64_t cpu1 = process_cpu_time_ns(), wall1 = wall_ns();
  EXPECT_GT(cpu1, cpu0);
  EXPECT_LE(cpu1 - cpu0, wall1 - wall0 + 1000000);  // + 1 ms: the two clocks are read apart
  const struct timespec pause = {0, 50000000};  // 50 ms asleep
  nanosleep(&pause, nullptr);
  EXPECT_LT(process_cpu_time_ns() - cpu1, 10000000u);
}

}  // namespace
}  // namespace ember::runtime
