// A ThreadPool over pthreadpool (Debian libpthreadpool), for tools that run
// kernels on several threads (executor_runner --cpu_threads).
#pragma once

#include <cstddef>

#include "runtime/core/thread_pool.h"

struct pthreadpool;

namespace ember::runtime {

class PthreadpoolThreadPool final : public ThreadPool {
 public:
  // `threads` = 0 lets pthreadpool pick one per core.
  explicit PthreadpoolThreadPool(size_t threads);
  ~PthreadpoolThreadPool() override;
  PthreadpoolThreadPool(const PthreadpoolThreadPool&) = delete;
  PthreadpoolThreadPool& operator=(const PthreadpoolThreadPool&) = delete;

  size_t num_threads() const override;
  void parallel_for(size_t count, Task fn, void* context) override;
  // The underlying pool (for backends that take a pthreadpool_t).
  struct pthreadpool* handle() const { return pool_; }

 private:
  struct pthreadpool* pool_;
};

}  // namespace ember::runtime
