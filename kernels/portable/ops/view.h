// View-like kernels, each a strided copy (ATen out variants): view, permute,
// expand, (un)squeeze, t, transpose, select, slice, narrow, diagonal,
// as_strided, unfold, split, split_with_sizes, unbind, flip, roll, repeat,
// tril, pixel_shuffle, pixel_unshuffle, view_as_real (complex64 -> float32 pairs; complex.cc).
#pragma once

#include <optional>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

using runtime::KernelRuntimeContext;
using runtime::Tensor;
using runtime::TensorList;

Tensor& view_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size, Tensor& out);
Tensor& permute_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, Tensor& out);
Tensor& expand_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size, bool implicit,
                        Tensor& out);
Tensor& unsqueeze_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, Tensor& out);
Tensor& squeeze_copy_dim_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                             Tensor& out);
Tensor& squeeze_copy_dims_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims,
                              Tensor& out);
Tensor& t_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);
Tensor& transpose_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim0,
                               int64_t dim1, Tensor& out);
Tensor& select_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                            int64_t index, Tensor& out);
Tensor& slice_copy_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                              std::optional<int64_t> start, std::optional<int64_t> end,
                              int64_t step, Tensor& out);
Tensor& narrow_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t start,
                        int64_t length, Tensor& out);
Tensor& diagonal_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t offset,
                          int64_t dim1, int64_t dim2, Tensor& out);
Tensor& as_strided_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList size,
                            IntList stride, std::optional<int64_t> storage_offset, Tensor& out);
Tensor& unfold_copy_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim, int64_t size,
                        int64_t step, Tensor& out);
void split_copy_tensor_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t split_size,
                           int64_t dim, TensorList out);
void split_with_sizes_copy_out(KernelRuntimeContext& ctx, const Tensor& in, IntList sizes,
                               int64_t dim, TensorList out);
void unbind_copy_int_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t dim,
                         TensorList out);
Tensor& flip_out(KernelRuntimeContext& ctx, const Tensor& in, IntList dims, Tensor& out);
Tensor& roll_out(KernelRuntimeContext& ctx, const Tensor& in, IntList shifts, IntList dims,
                 Tensor& out);
Tensor& repeat_out(KernelRuntimeContext& ctx, const Tensor& in, IntList repeats, Tensor& out);
Tensor& tril_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t diagonal, Tensor& out);
Tensor& pixel_shuffle_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t factor,
                          Tensor& out);
Tensor& pixel_unshuffle_out(KernelRuntimeContext& ctx, const Tensor& in, int64_t factor,
                            Tensor& out);
Tensor& view_as_real_copy_out(KernelRuntimeContext& ctx, const Tensor& in, Tensor& out);

}  // namespace ember::kernels::portable
