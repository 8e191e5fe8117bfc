#include "runtime/kernel/kernel_registry.h"

#include "runtime/kernel/register_kernel.h"

#include <cstring>

namespace ember::runtime {

Error KernelRegistry::check(const Kernel& kernel, Span<const Kernel> pending) const {
  if (kernel.name == nullptr || kernel.function == nullptr) {
    return fail(Error::InvalidArgument, "kernel registration with a null name or function");
  }
  if (contains(kernel.name)) {
    return fail(Error::RegistrationAlreadyRegistered, "kernel '%s' is already registered",
                kernel.name);
  }
  for (const Kernel& other : pending) {
    if (std::strcmp(other.name, kernel.name) == 0) {
      return fail(Error::RegistrationAlreadyRegistered, "kernel '%s' is listed twice",
                  kernel.name);
    }
  }
  return Error::Ok;
}

Error KernelRegistry::register_kernel(const Kernel& kernel) {
  return register_kernels(Span<const Kernel>(&kernel, 1));
}

Error KernelRegistry::register_kernels(Span<const Kernel> kernels) {
  if (kernels.size() > capacity_ - size_) {
    return fail(Error::RegistrationExceedingMaxKernels,
                "registering %zu kernels would exceed the registry capacity of %zu (%zu used)",
                kernels.size(), capacity_, size_);
  }
  for (size_t i = 0; i < kernels.size(); ++i) {
    EMBER_TRY(check(kernels[i], kernels.subspan(0, i)));
  }
  for (const Kernel& kernel : kernels) storage_[size_++] = kernel;
  return Error::Ok;
}

Result<OpFunction> KernelRegistry::find(std::string_view name) const {
  for (size_t i = 0; i < size_; ++i) {
    if (name == storage_[i].name) return storage_[i].function;
  }
  return Error::OperatorMissing;
}

bool KernelRegistry::contains(std::string_view name) const { return find(name).ok(); }

Error register_kernel(const char* name, OpFunction function) {
  return default_kernel_registry().register_kernel(Kernel{name, function});
}

KernelRegistry& default_kernel_registry() {
  static FixedKernelRegistry<kDefaultKernelRegistryCapacity> registry;
  return registry;
}

}  // namespace ember::runtime
