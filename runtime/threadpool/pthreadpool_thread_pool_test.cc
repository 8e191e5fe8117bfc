// Tests PthreadpoolThreadPool: every index runs exactly once, sizes are as
// asked, handle() is the pool itself, and runtime::parallel_for falls back to
// the caller for one thread.
#include "runtime/threadpool/pthreadpool_thread_pool.h"

#include <pthreadpool.h>

#include <atomic>
#include <vector>

#include <gtest/gtest.h>

namespace ember::runtime {
namespace {

void bump(void* context, size_t index) {
  (*static_cast<std::vector<std::atomic<int>>*>(context))[index]++;
}

TEST(PthreadpoolThreadPoolTest, RunsEveryIndexOnce) {
  PthreadpoolThreadPool pool(2);
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ(pool.num_threads(), 2u);
  std::vector<std::atomic<int>> hits(1000);
  pool.parallel_for(hits.size(), &bump, &hits);
  for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(PthreadpoolThreadPoolTest, HandleIsTheUnderlyingPool) {
  // Calls pthreadpool directly, without parallel_for's ThreadSanitizer annotations: `hits` is
  // made before the pool's threads (pthread_create orders it) and outlives them (pthread_join).
  std::vector<std::atomic<int>> hits(10);
  PthreadpoolThreadPool pool(3);
  ASSERT_TRUE(pool.ok());
  ASSERT_NE(pool.handle(), nullptr);
  EXPECT_EQ(pthreadpool_get_threads_count(pool.handle()), 3u);
  pthreadpool_parallelize_1d(pool.handle(), &bump, &hits, hits.size(), 0);
  for (const auto& h : hits) EXPECT_EQ(h.load(), 1);
}

TEST(PthreadpoolThreadPoolTest, FreeFunctionUsesPool) {
  PthreadpoolThreadPool pool(2);
  std::vector<std::atomic<int>> hits(7);
  parallel_for(&pool, hits.size(), &bump, &hits);
  parallel_for(nullptr, hits.size(), &bump, &hits);
  for (const auto& h : hits) EXPECT_EQ(h.load(), 2);
}

}  // namespace
}  // namespace ember::runtime
