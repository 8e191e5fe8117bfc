// A tiny test-only kernel set (aten::add.out, aten::mul.out,
// dim_order_ops::_to_dim_order_copy.out) for runtime tests, independent of the
// portable kernel library: same-dtype float/int operands, equal shapes or one
// single-element operand. Unsupported cases fail through the context.
#pragma once

#include "runtime/kernel/kernel_registry.h"

namespace ember::testing {

runtime::Error register_test_kernels(runtime::KernelRegistry& registry);

}  // namespace ember::testing
