// The C API's table of live handles (issue #33: a double destroy, a call on a destroyed
// handle and destroying a program before its methods were undefined behaviour).
//
// Every ember_program and ember_method is registered when it is created and unregistered
// when it is destroyed; every entry point looks its handle up first, so a handle that was
// destroyed (or never created) is InvalidArgument with a message and never dereferenced. A
// method marks itself busy for the length of a call: a second thread using it meanwhile gets
// InvalidState instead of a data race. A program destroyed while it has methods is
// unregistered at once (later calls on it are refused) and freed with its last method.
//
// The table is fixed (kMaxLiveHandles entries, no allocation, so the caller-memory path
// stays allocation-free) and guarded by one mutex held only for the lookup. A stale pointer
// whose address a new handle reuses is, unavoidably, that new handle.
#pragma once

#include <cstddef>

#include "runtime/core/error.h"

namespace ember::capi {

enum class HandleKind : unsigned char { Program = 1, Method = 2, Llm = 3 };

constexpr size_t kMaxLiveHandles = size_t(1) << 16;

// OutOfResources when kMaxLiveHandles handles are live.
runtime::Error register_handle(const void* handle, HandleKind kind);
// false (nothing changed) when `handle` is not a live handle of `kind`.
bool unregister_handle(const void* handle, HandleKind kind);
// Ok when `handle` is a live handle of `kind`; InvalidArgument naming `what` ("method",
// "program") for NULL and for a handle that is not live.
runtime::Error check_handle(const void* handle, HandleKind kind, const char* what);

// Runs `fn()` with `lock` held: the registry's mutex, for the few compound steps (claiming a
// method, counting a program's methods) that must not interleave with a destroy.
class RegistryLock {
 public:
  RegistryLock();
  ~RegistryLock();
  RegistryLock(const RegistryLock&) = delete;
  RegistryLock& operator=(const RegistryLock&) = delete;
};

// The same as check_handle, for callers that hold RegistryLock.
runtime::Error check_handle_locked(const void* handle, HandleKind kind, const char* what);
bool unregister_handle_locked(const void* handle, HandleKind kind);

}  // namespace ember::capi
