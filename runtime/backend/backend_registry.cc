#include "runtime/backend/backend_registry.h"

#include <cstdio>
#include <cstring>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Error BackendRegistry::register_backend(const char* name, BackendInterface* backend) {
  if (name == nullptr || backend == nullptr) {
    return fail(Error::InvalidArgument, "backend registration with a null name or backend");
  }
  if (find(name).ok()) {
    return fail(Error::RegistrationAlreadyRegistered, "backend '%s' is already registered", name);
  }
  if (size_ == kMaxBackends) {
    return fail(Error::OutOfResources, "cannot register backend '%s': registry holds %zu already",
                name, kMaxBackends);
  }
  entries_[size_++] = Entry{name, backend};
  return Error::Ok;
}

Result<BackendInterface*> BackendRegistry::find(std::string_view name) const {
  for (size_t i = 0; i < size_; ++i) {
    if (name == entries_[i].name) return entries_[i].backend;
  }
  return Error::NotFound;
}

const char* BackendRegistry::describe_names(char* buffer, size_t size) const {
  if (size == 0) return buffer;
  buffer[0] = '\0';
#if defined(EMBER_NO_MESSAGES)
  return buffer;  // only messages use the list, and this build has none (diagnostics.h)
#endif
  size_t n = 0;
  for (size_t i = 0; i < size_ && n < size; ++i) {
    int w = snprintf(buffer + n, size - n, i == 0 ? "%s" : ", %s", entries_[i].name);
    if (w < 0) break;
    n += size_t(w);
  }
  if (size_ == 0) snprintf(buffer, size, "none");
  return buffer;
}

BackendRegistry& default_backend_registry() {
  static BackendRegistry registry;
  return registry;
}

}  // namespace ember::runtime
