#include "runtime/core/tensor.h"

#include <cstdio>

#include "runtime/core/diagnostics.h"

namespace ember::runtime {

Tensor::Tensor(ScalarType type, size_t dim, SizesType* sizes, DimOrderType* dim_order,
               StridesType* strides, void* data, ShapeDynamism dynamism)
    : type_(type),
      dynamism_(dynamism),
      dim_(dim),
      sizes_(sizes),
      dim_order_(dim_order),
      strides_(strides),
      data_(data) {
  if (!compute_numel(sizes_ == nullptr ? Span<const SizesType>() : Span<const SizesType>(sizes_, dim_),
                     &numel_)) {
    numel_ = 0;
  }
  capacity_numel_ = numel_;
  compute_strides();
}

bool Tensor::compute_numel(Span<const SizesType> sizes, size_t* numel) {
  size_t n = 1;
  for (SizesType s : sizes) {
    if (s < 0) return false;
    if (s != 0 && n > SIZE_MAX / static_cast<size_t>(s)) return false;
    n *= static_cast<size_t>(s);
  }
  *numel = n;
  return true;
}

void Tensor::compute_strides() {
  if (strides_ == nullptr || dim_ == 0) return;
  // Walk dims from innermost (last in dim_order) to outermost.
  StridesType stride = 1;
  for (size_t i = dim_; i-- > 0;) {
    const DimOrderType d = dim_order_ != nullptr ? dim_order_[i] : static_cast<DimOrderType>(i);
    strides_[d] = stride;
    stride *= sizes_[d] > 1 ? sizes_[d] : 1;
  }
}

bool Tensor::is_contiguous_dim_order() const {
  for (size_t i = 0; i < dim_; ++i) {
    if (dim_order_ != nullptr && dim_order_[i] != i) return false;
  }
  return true;
}

bool Tensor::is_channels_last_dim_order() const {
  return dim_ == 4 && dim_order_ != nullptr && dim_order_[0] == 0 && dim_order_[1] == 2 &&
         dim_order_[2] == 3 && dim_order_[3] == 1;
}

Error Tensor::resize_slow(Span<const SizesType> new_sizes) {
  char have[96], want[96];
  if (new_sizes.size() != dim_) {
    return fail(Error::InvalidArgument, "cannot resize %s to rank %zu: rank must stay %zu",
                describe(*this, have, sizeof(have)), new_sizes.size(), dim_);
  }
  size_t numel = 0;
  if (!compute_numel(new_sizes, &numel)) {
    return fail(Error::InvalidArgument, "cannot resize %s to %s: invalid sizes",
                describe(*this, have, sizeof(have)),
                describe_shape(type_, new_sizes, want, sizeof(want)));
  }
  // Strides are int32: the product of the (non-zero) sizes must fit, even when
  // another dim is 0 and numel is 0.
  int64_t span = 1;
  for (SizesType s : new_sizes) {
    span *= s > 1 ? s : 1;
    if (span > INT32_MAX) {
      return fail(Error::InvalidArgument, "cannot resize %s to %s: strides overflow int32",
                  describe(*this, have, sizeof(have)),
                  describe_shape(type_, new_sizes, want, sizeof(want)));
    }
  }
  if (dynamism_ == ShapeDynamism::Static) {
    return fail(Error::NotSupported, "cannot resize static tensor %s to %s",
                describe(*this, have, sizeof(have)),
                describe_shape(type_, new_sizes, want, sizeof(want)));
  }
  if (numel > capacity_numel_) {
    return fail(Error::InvalidArgument,
                "cannot resize %s to %s: %zu elements exceed the capacity of %zu",
                describe(*this, have, sizeof(have)),
                describe_shape(type_, new_sizes, want, sizeof(want)), numel, capacity_numel_);
  }
  for (size_t i = 0; i < dim_; ++i) sizes_[i] = new_sizes[i];
  numel_ = numel;
  compute_strides();
  return Error::Ok;
}

const char* describe_shape(ScalarType type, Span<const SizesType> sizes, char* buffer,
                           size_t size) {
  if (size == 0) return buffer;
#if defined(EMBER_NO_MESSAGES)
  // Only messages use the description, and this build has none (diagnostics.h).
  (void)type;
  (void)sizes;
  buffer[0] = '\0';
  return buffer;
#endif
  int n = snprintf(buffer, size, "%s[", scalar_type_name(type));
  for (size_t i = 0; i < sizes.size() && n >= 0 && size_t(n) < size; ++i) {
    n += snprintf(buffer + n, size - size_t(n), i == 0 ? "%d" : ",%d", int(sizes[i]));
  }
  if (n >= 0 && size_t(n) < size) snprintf(buffer + n, size - size_t(n), "]");
  return buffer;
}

const char* describe(const Tensor& tensor, char* buffer, size_t size) {
  return describe_shape(tensor.scalar_type(), tensor.sizes(), buffer, size);
}

}  // namespace ember::runtime
