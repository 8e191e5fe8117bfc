// Strided copies: the primitive behind every view-like kernel (permute,
// expand, slice, select, flip, pixel_shuffle, cat, ...). A View describes
// elements of some tensor's memory by a base pointer, dtype and per-dim
// strides over a shared logical shape; copy_view copies (and converts dtype)
// between two views, flat (memcpy) when both are contiguous in the same order.
#pragma once

#include <cstdint>

#include "kernels/portable/util/tensor_util.h"
#include "runtime/core/scalar.h"
#include "runtime/core/tensor.h"

namespace ember::kernels::portable {

struct View {
  void* data = nullptr;  // element 0 (after any offset)
  runtime::ScalarType dtype = runtime::ScalarType::Float;
  int64_t strides[kMaxTensorDims] = {};
};

// The whole of `t` as a view (rank t.dim()), offset by `offset` elements.
View view_of(const Tensor& t, int64_t offset = 0);

// Copies every element of the logical shape `sizes` (rank `rank`) from src to
// dst, converting dtypes. Returns false for an unsupported dtype.
bool copy_view(const SizesType* sizes, size_t rank, const View& dst, const View& src);

// Same-dtype copy (element size `esize`) of the logical shape `sizes` when at most two of its
// dims have size > 1: one memcpy or a direct double loop, no View or strided-loop set-up.
// Strides are in elements, one per dim. False (nothing copied) when the shape has more
// non-unit dims or esize isn't 1, 2, 4 or 8.
bool copy_small(const SizesType* sizes, size_t rank, size_t esize, void* dst,
                const int64_t* dst_strides, const void* src, const int64_t* src_strides);

// Copies src (broadcast to out's shape) into out; false on a dtype it can't copy.
bool copy_into(const Tensor& src, Tensor& out);

// Copies `src` into `out` element by element in logical row-major order
// (reshape semantics); shapes may differ, numels must match.
bool reshape_copy(const Tensor& src, Tensor& out);

// Whether `value` converts to `type` without overflow (ATen's checked
// conversion for fill values: integers in range, finite floats in range).
bool scalar_fits(runtime::ScalarType type, const runtime::Scalar& value);

// Fills all of out with `value` converted to out's dtype.
void fill_scalar(Tensor& out, const runtime::Scalar& value);

}  // namespace ember::kernels::portable
