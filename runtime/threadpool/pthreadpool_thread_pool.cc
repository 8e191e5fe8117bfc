// PthreadpoolThreadPool; see pthreadpool_thread_pool.h.
#include "runtime/threadpool/pthreadpool_thread_pool.h"

#include <pthreadpool.h>

// Debian's libpthreadpool is not built with ThreadSanitizer, so TSan cannot see the
// happens-before edges its job hand-off and completion wait provide, and reports races between
// the caller's writes and the tasks' reads (or the tasks' writes and the caller's reads after
// the join). Under TSan, parallel_for states those two edges itself; real races between tasks
// are still reported.
#if defined(__SANITIZE_THREAD__)
#define EMBER_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define EMBER_TSAN 1
#endif
#endif
#ifdef EMBER_TSAN
#include <sanitizer/tsan_interface.h>
#endif

namespace ember::runtime {
namespace {

#ifdef EMBER_TSAN
struct AnnotatedTask {
  ThreadPool::Task fn;
  void* context;
};

void run_annotated(void* context, size_t index) {
  auto* task = static_cast<AnnotatedTask*>(context);
  __tsan_acquire(task);  // the caller's writes before parallel_for happen before this task
  task->fn(task->context, index);
  __tsan_release(task);  // and this task happens before parallel_for returns
}
#endif

}  // namespace

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
#ifdef EMBER_TSAN
  AnnotatedTask task{fn, context};
  __tsan_release(&task);
  pthreadpool_parallelize_1d(pool_, &run_annotated, &task, count, 0);
  __tsan_acquire(&task);
#else
  pthreadpool_parallelize_1d(pool_, fn, context, count, 0);
#endif
}

}  // namespace ember::runtime
