// The C++ kernel of the example's custom operator, mylib::scaled_add (a torch.library op
// exported by refgen/fixtures/generate_custom_op.py): out = a + alpha * b.
//
// A kernel is the operator's out variant, with the arguments of the out schema the AoT was
// given (scaled_add_ops.yaml) in order, `out` last:
//   mylib::scaled_add.out(Tensor a, Tensor b, float alpha=1.0, *, Tensor(a!) out) -> Tensor(a!)
// Like every Ember kernel it never allocates, aborts or prints: bad input is reported with
// ctx.fail() and the method's execute() returns that error.
#pragma once

#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_registry.h"

namespace mylib {

using ember::runtime::KernelRuntimeContext;
using ember::runtime::Tensor;

// float32 tensors of one shape; `out` is resized to it.
Tensor& scaled_add_out(KernelRuntimeContext& ctx, const Tensor& a, const Tensor& b, double alpha,
                       Tensor& out);

// Registers this library's kernels ("mylib::scaled_add.out") into `registry`: one
// register_kernel call per kernel. Into the process-wide registry that Module uses:
// mylib::register_kernels(ember::runtime::default_kernel_registry()).
ember::runtime::Error register_kernels(ember::runtime::KernelRegistry& registry);

}  // namespace mylib
