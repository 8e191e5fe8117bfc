// Kernel registry: an explicit table of (operator name -> function) of fixed
// capacity, over storage the owner provides. Nothing registers itself: a
// program calls e.g. ember::kernels::portable::register_kernels(registry).
// Names are "<ns>::<op>.<overload>" ("aten::add.out"), or "<ns>::<op>" when the
// overload is empty, exactly as the .pte's operator table spells them. Lookup
// happens once per operator at method load, so it is a linear scan.
#pragma once

#include <cstddef>
#include <string_view>

#include "runtime/core/error.h"
#include "runtime/core/evalue.h"
#include "runtime/core/result.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::runtime {

// The boxed kernel ABI: args are the KernelCall's values in schema order, then
// the return slot.
using OpFunction = void (*)(KernelRuntimeContext& context, Span<EValue*> args);

struct Kernel {
  const char* name;  // must outlive the registry (string literals)
  OpFunction function;
};

class KernelRegistry {
 public:
  // `storage` holds up to `capacity` kernels and must outlive the registry.
  KernelRegistry(Kernel* storage, size_t capacity) : storage_(storage), capacity_(capacity) {}
  KernelRegistry(const KernelRegistry&) = delete;
  KernelRegistry& operator=(const KernelRegistry&) = delete;

  // Errors: RegistrationAlreadyRegistered for a duplicate name,
  // RegistrationExceedingMaxKernels when full, InvalidArgument for a null
  // name or function. Registers nothing from a span with any bad entry.
  Error register_kernel(const Kernel& kernel);
  Error register_kernels(Span<const Kernel> kernels);

  // The function registered under `name`, or OperatorMissing.
  Result<OpFunction> find(std::string_view name) const;
  bool contains(std::string_view name) const;

  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  Span<const Kernel> kernels() const { return {storage_, size_}; }

 private:
  Error check(const Kernel& kernel, Span<const Kernel> pending) const;

  Kernel* storage_;
  size_t capacity_;
  size_t size_ = 0;
};

// A registry with inline storage for N kernels.
template <size_t N>
class FixedKernelRegistry final : public KernelRegistry {
 public:
  FixedKernelRegistry() : KernelRegistry(storage_, N) {}

 private:
  Kernel storage_[N];
};

// Capacity of the process-wide default registry.
constexpr size_t kDefaultKernelRegistryCapacity = 1024;

// The process-wide registry Program::load_method uses when none is passed. It
// starts empty; registering into it is explicit. Not thread-safe to mutate
// while methods are being loaded.
KernelRegistry& default_kernel_registry();

}  // namespace ember::runtime
