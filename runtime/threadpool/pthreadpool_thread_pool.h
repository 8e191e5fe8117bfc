// PthreadpoolThreadPool: ember::runtime::ThreadPool over a pthreadpool of a
// size the caller chooses (0 = one thread per logical CPU, as pthreadpool
// decides). The pool's threads are created by the constructor (an
// application-level object, not a runtime allocation); parallel_for blocks
// until every index has run. Optional: link //runtime/threadpool and pass
// the pool to KernelRuntimeContext / the executor (executor_runner
// --cpu_threads does), and handle() to a backend that takes a pthreadpool_t.
#pragma once

#include <cstddef>

#include "runtime/core/thread_pool.h"

struct pthreadpool;

namespace ember::runtime {

class PthreadpoolThreadPool final : public ThreadPool {
 public:
  explicit PthreadpoolThreadPool(size_t num_threads);
  ~PthreadpoolThreadPool() override;
  PthreadpoolThreadPool(const PthreadpoolThreadPool&) = delete;
  PthreadpoolThreadPool& operator=(const PthreadpoolThreadPool&) = delete;

  // False if pthreadpool could not create its threads (then everything runs
  // on the calling thread).
  bool ok() const { return pool_ != nullptr; }
  size_t num_threads() const override;
  void parallel_for(size_t count, Task fn, void* context) override;
  // The underlying pool, for backends that take a pthreadpool_t; null when
  // !ok(). Owned by this object: valid until it is destroyed.
  pthreadpool* handle() const { return pool_; }

 private:
  pthreadpool* pool_;
};

}  // namespace ember::runtime
