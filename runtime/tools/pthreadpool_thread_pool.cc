#include "runtime/tools/pthreadpool_thread_pool.h"

#include <pthreadpool.h>

namespace ember::runtime {
namespace {

struct Call {
  ThreadPool::Task fn;
  void* context;
};

void trampoline(void* call, size_t i) {
  const Call* c = static_cast<const Call*>(call);
  c->fn(c->context, i);
}

}  // namespace

PthreadpoolThreadPool::PthreadpoolThreadPool(size_t threads) : pool_(pthreadpool_create(threads)) {}
PthreadpoolThreadPool::~PthreadpoolThreadPool() {
  if (pool_ != nullptr) pthreadpool_destroy(pool_);
}

size_t PthreadpoolThreadPool::num_threads() const {
  return pool_ == nullptr ? 1 : pthreadpool_get_threads_count(pool_);
}

void PthreadpoolThreadPool::parallel_for(size_t count, Task fn, void* context) {
  Call call{fn, context};
  pthreadpool_parallelize_1d(pool_, trampoline, &call, count, 0);
}

}  // namespace ember::runtime
