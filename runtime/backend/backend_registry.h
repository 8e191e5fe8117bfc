// BackendRegistry: an explicit, fixed-capacity table of (name -> backend). A
// program registers the backends it links, e.g.
// ember::backends::xnnpack::register_backend(default_backend_registry());
// nothing registers itself. Method load looks up BackendDelegate.id here.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/backend/backend_interface.h"
#include "runtime/core/error.h"
#include "runtime/core/result.h"

namespace ember::runtime {

class BackendRegistry final {
 public:
  static constexpr size_t kMaxBackends = 16;

  // `name` must outlive the registry (a string literal). Errors:
  // RegistrationAlreadyRegistered for a duplicate name, OutOfResources when
  // full, InvalidArgument for a null name or backend.
  Error register_backend(const char* name, BackendInterface* backend);

  // The backend registered under `name`, or NotFound.
  Result<BackendInterface*> find(std::string_view name) const;

  size_t size() const { return size_; }
  const char* name_at(size_t i) const { return i < size_ ? entries_[i].name : nullptr; }

  // Writes "A, B" (or "none") into `buffer`, for error messages; returns buffer.
  const char* describe_names(char* buffer, size_t size) const;

 private:
  struct Entry {
    const char* name;
    BackendInterface* backend;
  };
  Entry entries_[kMaxBackends] = {};
  size_t size_ = 0;
};

// The process-wide registry Program::load_method uses when none is passed.
BackendRegistry& default_backend_registry();

}  // namespace ember::runtime
