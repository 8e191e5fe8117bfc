// Indexing kernels (ATen out variants): embedding, index_select, index_copy, gather,
// scatter (src and value), scatter_add, index.Tensor (advanced indexing with
// long, int and bool indices), index_put / index_put_, masked_select,
// masked_scatter, nonzero, repeat_interleave. Out-of-range indices fail with
// InvalidArgument naming the index.
#pragma once

#include <string_view>

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::OptionalTensorList;
using runtime::Scalar;
using runtime::Tensor;

Tensor& embedding_out(KernelRuntimeContext& ctx, const Tensor& weight, const Tensor& indices,
                      int64_t padding_idx, bool scale_grad_by_freq, bool sparse, Tensor& out);
Tensor& index_select_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                         const Tensor& index, Tensor& out);
Tensor& index_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                       const Tensor& index, const Tensor& source, Tensor& out);
Tensor& gather_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, const Tensor& index,
                   bool sparse_grad, Tensor& out);
Tensor& scatter_src_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        const Tensor& index, const Tensor& src, Tensor& out);
Tensor& scatter_value_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                          const Tensor& index, const Scalar& value, Tensor& out);
Tensor& scatter_add_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                        const Tensor& index, const Tensor& src, Tensor& out);
// scatter_reduce.two_out: out = self, then every src element combined into out at its index
// along dim with `reduce` ("sum", "prod", "mean", "amax", "amin"); include_self=false leaves
// self's value out of every position that receives one. "mean" divides by the count (floor
// division for integers). Needs 8 bytes of temp memory per element of out (the counts).
Tensor& scatter_reduce_two_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                               const Tensor& index, const Tensor& src, std::string_view reduce,
                               bool include_self, Tensor& out);
Tensor& index_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, OptionalTensorList indices,
                         Tensor& out);
Tensor& index_put_out(KernelRuntimeContext& ctx, const Tensor& in, OptionalTensorList indices,
                      const Tensor& values, bool accumulate, Tensor& out);
Tensor& index_put_inplace(KernelRuntimeContext& ctx, Tensor& self, OptionalTensorList indices,
                          const Tensor& values, bool accumulate);
Tensor& masked_select_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                          Tensor& out);
Tensor& masked_scatter_out(KernelRuntimeContext& ctx, const Tensor& in, const Tensor& mask,
                           const Tensor& source, Tensor& out);
Tensor& nonzero_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& repeat_interleave_tensor_out(KernelRuntimeContext& ctx, const Tensor& repeats,
                                     std::optional<int64_t> output_size, Tensor& out);

}  // namespace ember::kernels::portable
