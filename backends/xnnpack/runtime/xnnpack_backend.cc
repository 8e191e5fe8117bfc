// XnnpackBackend: BackendInterface glue around XnnpackExecutor; see xnnpack_backend.h.
#include "backends/xnnpack/runtime/xnnpack_backend.h"

#include <pthreadpool.h>
#include <xnnpack.h>

#include <new>

#include "backends/xnnpack/runtime/xnn_allocator.h"
#include "backends/xnnpack/runtime/xnnpack_executor.h"
#include "runtime/core/diagnostics.h"

namespace ember::backends::xnnpack {

using runtime::Error;
using runtime::fail;

XnnpackBackend::~XnnpackBackend() {
  if (pool_ != nullptr) pthreadpool_destroy(static_cast<pthreadpool_t>(pool_));
}

// The first xnn_initialize call fixes XNNPACK's allocator: every call passes Ember's.
bool XnnpackBackend::is_available() const {
  return xnn_initialize(xnn_allocator_with_huge_pages()) == xnn_status_success;
}

Error XnnpackBackend::set_num_threads(size_t n) {
  if (n == 0) return fail(Error::InvalidArgument, "XnnpackBackend: thread count must be >= 1");
  num_threads_ = n;
  return Error::Ok;
}

void* XnnpackBackend::pool_for_init() const {
  if (num_threads_ <= 1) return nullptr;
  if (pool_ == nullptr || pool_threads_ != num_threads_) {
    // Pools handed to earlier delegates stay alive (leaked on purpose) because
    // their runtimes still use them; a thread-count change is rare.
    pool_ = pthreadpool_create(num_threads_);
    pool_threads_ = num_threads_;
  }
  return pool_;
}

runtime::Result<runtime::DelegateHandle*> XnnpackBackend::init(
    runtime::BackendInitContext& context, runtime::FreeableBuffer* processed,
    runtime::Span<const runtime::CompileSpec> compile_specs) const {
  (void)compile_specs;  // upstream's exporter writes none the runtime reads
  const xnn_status st = xnn_initialize(xnn_allocator_with_huge_pages());
  if (st != xnn_status_success) {
    return fail(Error::NotSupported, "XnnpackBackend: xnn_initialize failed (unsupported CPU?)");
  }
  runtime::MemoryAllocator* allocator = context.runtime_allocator();
  void* mem = allocator == nullptr ? nullptr : allocator->allocate(sizeof(XnnpackExecutor), alignof(XnnpackExecutor));
  if (mem == nullptr) {
    return fail(Error::MemoryAllocationFailed,
                "XnnpackBackend: method '%s': runtime allocator has no room for a delegate",
                context.method_name() ? context.method_name() : "?");
  }
  auto* exec = new (mem) XnnpackExecutor();
  const Error e = exec->init(processed->data(), processed->size(), context.named_data_map(),
                             allocator, static_cast<pthreadpool_t>(pool_for_init()),
                             min_parallel_work_, winograd_);
  if (e != Error::Ok) {
    exec->~XnnpackExecutor();
    return runtime::annotate(e, "XnnpackBackend init (method '%s')",
                             context.method_name() ? context.method_name() : "?");
  }
  return static_cast<runtime::DelegateHandle*>(exec);
}

Error XnnpackBackend::execute(runtime::BackendExecutionContext& context,
                              runtime::DelegateHandle* handle,
                              runtime::Span<runtime::EValue*> args) const {
  (void)context;
  if (handle == nullptr) return fail(Error::DelegateInvalidHandle, "XnnpackBackend: null handle");
  return static_cast<XnnpackExecutor*>(handle)->execute(args);
}

void XnnpackBackend::destroy(runtime::DelegateHandle* handle) const {
  if (handle != nullptr) static_cast<XnnpackExecutor*>(handle)->~XnnpackExecutor();
}

XnnpackBackend& backend_instance() {
  static XnnpackBackend instance;
  return instance;
}

Error register_backend(runtime::BackendRegistry& registry) {
  return registry.register_backend(kBackendName, &backend_instance());
}

Error set_num_threads(size_t num_threads) { return backend_instance().set_num_threads(num_threads); }

void set_min_parallel_work(uint64_t work) { backend_instance().set_min_parallel_work(work); }

}  // namespace ember::backends::xnnpack
