// register_kernel: an app's own kernel (a custom operator's out variant, say) into the
// process-wide registry (default_kernel_registry(), the one Module uses) in one call, before
// loading a method that calls it (docs/custom_ops.md):
//
//   ember::runtime::register_kernel("mylib::scaled_add.out", &scaled_add_out);
//
// `name` is spelled as the .pte's operator table spells it and must outlive the registry (a
// string literal). Errors as KernelRegistry::register_kernel. With a registry of your own,
// call registry.register_kernel({name, function}) instead. Nothing registers itself.
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace ember::runtime {

Error register_kernel(const char* name, OpFunction function);

}  // namespace ember::runtime
