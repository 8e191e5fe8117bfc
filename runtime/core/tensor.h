// Tensor: the runtime's one tensor type. A small non-owning descriptor: element
// type, shape (sizes), memory order of the dimensions (dim_order, outermost
// first; contiguous is 0..n-1), strides derived from the two, and a data pointer.
// Sizes, dim_order and strides point at caller-provided arrays (for a loaded
// method, the method allocator), which must outlive the Tensor.
//
// Shape dynamism follows the .pte: a STATIC tensor keeps its shape (resize to the
// same shape is a no-op, anything else is NotSupported); a DYNAMIC_BOUND tensor
// may be resized to any shape of the same rank whose element count fits its
// capacity (the element count it was created with). Kernels resize their `out`
// tensors with resize().
#pragma once

#include <cstddef>
#include <cstdint>

#include "runtime/core/error.h"
#include "runtime/core/scalar_type.h"
#include "runtime/core/span.h"

namespace ember::runtime {

using SizesType = int32_t;
using DimOrderType = uint8_t;
using StridesType = int32_t;

// Largest rank a .pte tensor may have.
constexpr size_t kMaxTensorDims = 16;

enum class ShapeDynamism : uint8_t {
  Static = 0,
  DynamicBound = 1,
  DynamicUnbound = 2,  // rejected by the loader
};

class Tensor final {
 public:
  Tensor() = default;

  // `sizes`, `dim_order` and `strides` each point at `dim` elements (may be null
  // when dim == 0). Strides are computed here from sizes and dim_order; the
  // caller guarantees dim_order is a permutation of 0..dim-1.
  Tensor(ScalarType type, size_t dim, SizesType* sizes, DimOrderType* dim_order,
         StridesType* strides, void* data, ShapeDynamism dynamism = ShapeDynamism::Static);

  ScalarType scalar_type() const { return type_; }
  ScalarType dtype() const { return type_; }
  size_t dim() const { return dim_; }
  SizesType size(size_t d) const { return sizes_[d]; }
  Span<const SizesType> sizes() const { return {sizes_, dim_}; }
  Span<const DimOrderType> dim_order() const { return {dim_order_, dim_}; }
  Span<const StridesType> strides() const { return {strides_, dim_}; }
  ShapeDynamism shape_dynamism() const { return dynamism_; }

  // Number of elements (1 for rank 0).
  size_t numel() const { return numel_; }
  // Element count this tensor may grow to (the numel it was created with).
  size_t capacity_numel() const { return capacity_numel_; }
  size_t element_size() const { return runtime::element_size(type_); }
  size_t nbytes() const { return numel_ * element_size(); }

  // True when dim_order is 0..dim-1 (row-major).
  bool is_contiguous_dim_order() const;
  // True when dim_order is the channels-last order of a 4-D tensor: 0,2,3,1.
  bool is_channels_last_dim_order() const;

  void* mutable_data_ptr() const { return data_; }
  const void* const_data_ptr() const { return data_; }
  template <typename T>
  T* mutable_data_ptr() const {
    return static_cast<T*>(data_);
  }
  template <typename T>
  const T* const_data_ptr() const {
    return static_cast<const T*>(data_);
  }
  void set_data(void* data) { data_ = data; }

  // Sets a new shape of the same rank. See the header comment for the rules.
  // Errors (with a recorded message): InvalidArgument for a rank change, a
  // negative size or an element count above capacity; NotSupported when a
  // STATIC tensor is asked to change shape.
  // Inline when the shape is unchanged (the common case: a kernel re-asserting a
  // planned shape), so a tiny kernel does not pay a call for it.
  Error resize(Span<const SizesType> new_sizes) {
    if (new_sizes.size() == dim_) {
      size_t i = 0;
      while (i < dim_ && new_sizes[i] == sizes_[i]) ++i;
      if (i == dim_) return Error::Ok;
    }
    return resize_slow(new_sizes);
  }

  // Element count of `sizes` (1 for an empty list); false on negative sizes or
  // size_t overflow.
  static bool compute_numel(Span<const SizesType> sizes, size_t* numel);

 private:
  void compute_strides();
  Error resize_slow(Span<const SizesType> new_sizes);

  ScalarType type_ = ScalarType::Float;
  ShapeDynamism dynamism_ = ShapeDynamism::Static;
  size_t dim_ = 0;
  SizesType* sizes_ = nullptr;
  DimOrderType* dim_order_ = nullptr;
  StridesType* strides_ = nullptr;
  void* data_ = nullptr;
  size_t numel_ = 1;
  size_t capacity_numel_ = 1;
};

// Writes "float32[1, 3, 224, 224]" into `buffer` (for error messages); returns buffer.
const char* describe(const Tensor& tensor, char* buffer, size_t size);
const char* describe_shape(ScalarType type, Span<const SizesType> sizes, char* buffer, size_t size);

}  // namespace ember::runtime
