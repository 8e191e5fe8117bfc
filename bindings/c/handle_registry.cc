// The live-handle table (see handle_registry.h): open addressing over a fixed array, with
// tombstones for removed entries, under one mutex.
#include "bindings/c/handle_registry.h"

#include <cstdint>
#include <mutex>

#include "runtime/core/diagnostics.h"

namespace ember::capi {
namespace {

using runtime::Error;

struct Slot {
  const void* handle;
  unsigned char kind;  // 0: empty, 0xff: removed, else HandleKind
};

constexpr unsigned char kEmpty = 0, kRemoved = 0xff;

Slot g_slots[kMaxLiveHandles];
size_t g_live = 0;
std::mutex g_mutex;

size_t home(const void* handle) {
  uint64_t h = reinterpret_cast<uintptr_t>(handle);
  h ^= h >> 33;
  h *= 0xff51afd7ed558ccdull;
  h ^= h >> 33;
  return size_t(h) & (kMaxLiveHandles - 1);
}

// The slot holding `handle`, or -1.
long find(const void* handle) {
  for (size_t i = 0, s = home(handle); i < kMaxLiveHandles; ++i, s = (s + 1) & (kMaxLiveHandles - 1)) {
    if (g_slots[s].kind == kEmpty) return -1;
    if (g_slots[s].kind != kRemoved && g_slots[s].handle == handle) return long(s);
  }
  return -1;
}

const char* kind_name(HandleKind kind) {
  switch (kind) {
    case HandleKind::Program:
      return "ember_program";
    case HandleKind::Method:
      return "ember_method";
    case HandleKind::Llm:
      return "ember_llm";
  }
  return "ember";
}

}  // namespace

RegistryLock::RegistryLock() { g_mutex.lock(); }
RegistryLock::~RegistryLock() { g_mutex.unlock(); }

Error register_handle(const void* handle, HandleKind kind) {
  std::lock_guard<std::mutex> lock(g_mutex);
  const long existing = find(handle);  // storage reused without a destroy: take it over
  if (existing >= 0) {
    g_slots[existing].kind = static_cast<unsigned char>(kind);
    return Error::Ok;
  }
  if (g_live + 1 >= kMaxLiveHandles) {
    return runtime::fail(Error::OutOfResources, "more than %zu live ember handles; destroy some first",
                         kMaxLiveHandles - 1);
  }
  for (size_t s = home(handle);; s = (s + 1) & (kMaxLiveHandles - 1)) {
    if (g_slots[s].kind == kEmpty || g_slots[s].kind == kRemoved) {
      g_slots[s] = {handle, static_cast<unsigned char>(kind)};
      ++g_live;
      return Error::Ok;
    }
  }
}

bool unregister_handle_locked(const void* handle, HandleKind kind) {
  const long s = find(handle);
  if (s < 0 || g_slots[s].kind != static_cast<unsigned char>(kind)) return false;
  g_slots[s].kind = kRemoved;
  --g_live;
  return true;
}

bool unregister_handle(const void* handle, HandleKind kind) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return unregister_handle_locked(handle, kind);
}

Error check_handle_locked(const void* handle, HandleKind kind, const char* what) {
  if (handle == nullptr) return runtime::fail(Error::InvalidArgument, "%s is NULL", what);
  const long s = find(handle);
  if (s < 0 || g_slots[s].kind != static_cast<unsigned char>(kind)) {
    return runtime::fail(Error::InvalidArgument,
                         "%s %p is not a live %s handle (already destroyed, or not returned by the "
                         "API)",
                         what, handle, kind_name(kind));
  }
  return Error::Ok;
}

Error check_handle(const void* handle, HandleKind kind, const char* what) {
  std::lock_guard<std::mutex> lock(g_mutex);
  return check_handle_locked(handle, kind, what);
}

}  // namespace ember::capi
