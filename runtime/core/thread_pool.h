// ThreadPool: the interface through which kernels split work across threads. The
// runtime core owns no threads; an application (or executor_runner) passes an
// implementation, e.g. one over pthreadpool, and its size is the caller's
// choice. A null ThreadPool* means run on the calling thread. parallel_for calls
// fn(context, i) for every i in [0, count) and returns when all calls are done.
#pragma once

#include <cstddef>

namespace ember::runtime {

class ThreadPool {
 public:
  using Task = void (*)(void* context, size_t index);

  virtual ~ThreadPool() = default;
  virtual size_t num_threads() const = 0;
  virtual void parallel_for(size_t count, Task fn, void* context) = 0;
};

// Runs fn over [0, count) on `pool`, or inline when pool is null or count <= 1.
inline void parallel_for(ThreadPool* pool, size_t count, ThreadPool::Task fn, void* context) {
  if (pool == nullptr || count <= 1 || pool->num_threads() <= 1) {
    for (size_t i = 0; i < count; ++i) fn(context, i);
    return;
  }
  pool->parallel_for(count, fn, context);
}

}  // namespace ember::runtime
