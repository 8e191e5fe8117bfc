#include "tests/baremetal/cortex_m_image.h"

#include "runtime/kernel/prim_ops/prim_ops.h"
#include "toolchains/cortex_m/semihosting.h"

namespace ember::baremetal {

namespace {

// Static storage: the registry is part of .bss, like the arena.
runtime::FixedKernelRegistry<48> g_registry;

}  // namespace

int run_image(const char* name, const ModelCheck& model, RegisterKernels register_kernels,
              runtime::Span<uint8_t> arena) {
  using cortex_m::print;
  using cortex_m::print_int;
  runtime::Error e = runtime::register_prim_ops(g_registry);
  if (e == runtime::Error::Ok) e = register_kernels(g_registry);
  CheckResult r;
  if (e == runtime::Error::Ok) r = run_model_check(model, g_registry, arena);
  else r.error = e;
  print(name);
  print(": ");
  print(runtime::error_name(r.error));
  print(", ");
  print_int(static_cast<long long>(r.mismatches));
  print(" of ");
  print_int(static_cast<long long>(r.elements));
  print(" elements off PyTorch's output, max abs error ");
  print_int(static_cast<long long>(r.max_abs_error * 1e9f));
  print("e-9, kernels ");
  print_int(static_cast<long long>(g_registry.size()));
  print(", planned arena ");
  print_int(static_cast<long long>(r.planned_bytes));
  print(" B, arena used ");
  print_int(static_cast<long long>(r.arena_used));
  print(" of ");
  print_int(static_cast<long long>(arena.size()));
  print(" B\n");
  return r.error == runtime::Error::Ok && r.mismatches == 0 && r.elements > 0 ? 0 : 1;
}

}  // namespace ember::baremetal
