// PthreadpoolThreadPool; see pthreadpool_thread_pool.h.
#include "runtime/threadpool/pthreadpool_thread_pool.h"

#include <pthreadpool.h>

namespace ember::runtime {

PthreadpoolThreadPool::PthreadpoolThreadPool(size_t num_threads)
    : pool_(pthreadpool_create(num_threads)) {}

PthreadpoolThreadPool::~PthreadpoolThreadPool() {
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
}

size_t PthreadpoolThreadPool::num_threads() const {
  return pool_ != nullptr ? pthreadpool_get_threads_count(pool_) : 1;
}

void PthreadpoolThreadPool::parallel_for(size_t count, Task fn, void* context) {
  if (pool_ == nullptr) {
    for (size_t i = 0; i < count; ++i) fn(context, i);
    return;
  }
  pthreadpool_parallelize_1d(pool_, fn, context, count, 0);
}

}  // namespace ember::runtime
