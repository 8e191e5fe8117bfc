// The library-wide part of the C API: version, status and dtype names, the kernels and
// backends linked into libember, and the option/result struct initialisers.
#include <mutex>

#include "backends/xnnpack/runtime/xnnpack_backend.h"
#include "kernels/portable/register_kernels.h"
#include "bindings/c/handles.h"
#include "runtime/core/scalar_type.h"
#include "runtime/kernel/kernel_registry.h"
#include "runtime/kernel/prim_ops/prim_ops.h"

namespace ember::capi {
namespace {

using runtime::Error;

// The status codes are the runtime's Error values, one for one.
static_assert(EMBER_OK == uint32_t(Error::Ok));
static_assert(EMBER_INTERNAL == uint32_t(Error::Internal));
static_assert(EMBER_INVALID_STATE == uint32_t(Error::InvalidState));
static_assert(EMBER_END_OF_METHOD == uint32_t(Error::EndOfMethod));
static_assert(EMBER_ALREADY_LOADED == uint32_t(Error::AlreadyLoaded));
static_assert(EMBER_NOT_SUPPORTED == uint32_t(Error::NotSupported));
static_assert(EMBER_NOT_IMPLEMENTED == uint32_t(Error::NotImplemented));
static_assert(EMBER_INVALID_ARGUMENT == uint32_t(Error::InvalidArgument));
static_assert(EMBER_INVALID_TYPE == uint32_t(Error::InvalidType));
static_assert(EMBER_OPERATOR_MISSING == uint32_t(Error::OperatorMissing));
static_assert(EMBER_REGISTRATION_EXCEEDING_MAX_KERNELS ==
              uint32_t(Error::RegistrationExceedingMaxKernels));
static_assert(EMBER_REGISTRATION_ALREADY_REGISTERED ==
              uint32_t(Error::RegistrationAlreadyRegistered));
static_assert(EMBER_NOT_FOUND == uint32_t(Error::NotFound));
static_assert(EMBER_MEMORY_ALLOCATION_FAILED == uint32_t(Error::MemoryAllocationFailed));
static_assert(EMBER_ACCESS_FAILED == uint32_t(Error::AccessFailed));
static_assert(EMBER_INVALID_PROGRAM == uint32_t(Error::InvalidProgram));
static_assert(EMBER_INVALID_EXTERNAL_DATA == uint32_t(Error::InvalidExternalData));
static_assert(EMBER_OUT_OF_RESOURCES == uint32_t(Error::OutOfResources));
static_assert(EMBER_DELEGATE_INVALID_COMPATIBILITY ==
              uint32_t(Error::DelegateInvalidCompatibility));
static_assert(EMBER_DELEGATE_MEMORY_ALLOCATION_FAILED ==
              uint32_t(Error::DelegateMemoryAllocationFailed));
static_assert(EMBER_DELEGATE_INVALID_HANDLE == uint32_t(Error::DelegateInvalidHandle));
static_assert(EMBER_MAX_RANK == runtime::kMaxTensorDims);
static_assert(EMBER_DTYPE_FLOAT == int(runtime::ScalarType::Float));
static_assert(EMBER_DTYPE_BOOL == int(runtime::ScalarType::Bool));
static_assert(EMBER_DTYPE_BFLOAT16 == int(runtime::ScalarType::BFloat16));
static_assert(EMBER_KIND_LIST_OPTIONAL_TENSOR == int(runtime::Tag::ListOptionalTensor));

struct LinkedBackend {
  const char* name;
  runtime::BackendInterface* (*instance)();
};

runtime::BackendInterface* xnnpack_instance() { return &backends::xnnpack::backend_instance(); }

// Backends linked into libember, one line each.
constexpr LinkedBackend kLinkedBackends[] = {
    {backends::xnnpack::kBackendName, &xnnpack_instance},
};
constexpr size_t kNumLinkedBackends = sizeof(kLinkedBackends) / sizeof(kLinkedBackends[0]);

std::mutex backend_threads_mutex;

}  // namespace

Error linked_kernels(const runtime::KernelRegistry** out) {
  static runtime::FixedKernelRegistry<runtime::kDefaultKernelRegistryCapacity> registry;
  static Error status = Error::Internal;
  static char message[runtime::kMaxErrorMessageLength];
  static std::once_flag once;
  std::call_once(once, [] {
    status = runtime::register_prim_ops(registry);
    if (status == Error::Ok) status = kernels::portable::register_kernels(registry);
    if (status != Error::Ok) finish(message, status);
  });
  if (status != Error::Ok)
    return runtime::fail(status, "registering the linked kernels: %s", message);
  *out = &registry;
  return Error::Ok;
}

Error select_backends(const char* list, runtime::BackendRegistry* registry) {
  for (size_t i = 0; i < kNumLinkedBackends; ++i) {
    const LinkedBackend& b = kLinkedBackends[i];
    bool wanted = list == nullptr;
    for (const char* p = list; p != nullptr && *p != '\0';) {
      const char* end = p;
      while (*end != '\0' && *end != ',') ++end;
      const std::string_view name(p, size_t(end - p));
      if (name == b.name) wanted = true;
      p = *end == ',' ? end + 1 : end;
    }
    if (wanted) EMBER_TRY(registry->register_backend(b.name, b.instance()));
  }
  // Every name in the list must be a linked backend.
  for (const char* p = list; p != nullptr && *p != '\0';) {
    const char* end = p;
    while (*end != '\0' && *end != ',') ++end;
    const std::string_view name(p, size_t(end - p));
    if (!registry->find(name).ok()) {
      return runtime::fail(Error::NotFound,
                           "backend '%.*s' is not linked into this library (linked: %s)",
                           int(name.size()), name.data(), kLinkedBackends[0].name);
    }
    p = *end == ',' ? end + 1 : end;
  }
  runtime::clear_error_message();
  return Error::Ok;
}

void lock_backend_threads(size_t num_threads) {
  backend_threads_mutex.lock();
  (void)backends::xnnpack::set_num_threads(num_threads == 0 ? 1 : num_threads);
}

void unlock_backend_threads() { backend_threads_mutex.unlock(); }

}  // namespace ember::capi

using ember::capi::kLinkedBackends;
using ember::capi::kNumLinkedBackends;
using ember::runtime::Error;

extern "C" {

uint32_t ember_version(void) { return EMBER_VERSION; }

const char* ember_status_name(ember_status status) {
  return ember::runtime::error_name(static_cast<Error>(static_cast<uint32_t>(status)));
}

const char* ember_status_meaning(ember_status status) {
  return ember::runtime::error_meaning(static_cast<Error>(static_cast<uint32_t>(status)));
}

const char* ember_last_error_message(void) { return ember::runtime::last_error_message(); }

const char* ember_dtype_name(ember_dtype dtype) {
  const auto t = static_cast<ember::runtime::ScalarType>(static_cast<int>(dtype));
  return ember::runtime::is_valid(t) ? ember::runtime::scalar_type_name(t) : "unknown";
}

size_t ember_dtype_size(ember_dtype dtype) {
  const auto t = static_cast<ember::runtime::ScalarType>(static_cast<int>(dtype));
  return ember::runtime::is_valid(t) ? ember::runtime::element_size(t) : 0;
}

size_t ember_backend_count(void) { return kNumLinkedBackends; }

const char* ember_backend_name(size_t index) {
  return index < kNumLinkedBackends ? kLinkedBackends[index].name : nullptr;
}

void ember_program_options_init(ember_program_options* options) {
  if (options == nullptr) return;
  *options = ember_program_options{};
  options->struct_size = sizeof(*options);
}

void ember_method_options_init(ember_method_options* options) {
  if (options == nullptr) return;
  *options = ember_method_options{};
  options->struct_size = sizeof(*options);
}

void ember_tensor_info_init(ember_tensor_info* info) {
  if (info == nullptr) return;
  *info = ember_tensor_info{};
  info->struct_size = sizeof(*info);
}

void ember_value_init(ember_value* value) {
  if (value == nullptr) return;
  *value = ember_value{};
  value->struct_size = sizeof(*value);
}

void ember_profile_entry_init(ember_profile_entry* entry) {
  if (entry == nullptr) return;
  *entry = ember_profile_entry{};
  entry->struct_size = sizeof(*entry);
}

}  // extern "C"
