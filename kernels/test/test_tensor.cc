// TestTensor; see test_tensor.h.
#include "kernels/test/test_tensor.h"

#include "kernels/portable/util/dispatch.h"
#include "kernels/portable/util/tensor_util.h"

namespace ember::kernels::testing {

namespace portable = ember::kernels::portable;

TestTensor::TestTensor(ScalarType type, std::vector<int32_t> sizes,
                       std::vector<uint8_t> dim_order, size_t capacity)
    : sizes_(std::move(sizes)), dim_order_(std::move(dim_order)) {
  if (dim_order_.empty()) {
    for (size_t i = 0; i < sizes_.size(); ++i) dim_order_.push_back(static_cast<uint8_t>(i));
  }
  strides_.resize(sizes_.size());
  size_t numel = 1;
  for (int32_t s : sizes_) numel *= static_cast<size_t>(s);
  const size_t elements = capacity > numel ? capacity : numel;
  data_.assign((elements * runtime::element_size(type) + 7) / 8 + 1, 0);
  // Create at capacity first so capacity_numel() is right, then shrink.
  const auto dynamism = capacity > numel ? runtime::ShapeDynamism::DynamicBound
                                         : runtime::ShapeDynamism::Static;
  if (capacity > numel) {
    std::vector<int32_t> big(sizes_.size(), 1);
    if (!big.empty()) big[0] = static_cast<int32_t>(capacity);
    std::vector<int32_t> want = sizes_;
    sizes_ = big;
    tensor_ = std::make_unique<Tensor>(type, sizes_.size(), sizes_.data(), dim_order_.data(),
                                       strides_.data(), data_.data(), dynamism);
    (void)tensor_->resize({want.data(), want.size()});
  } else {
    tensor_ = std::make_unique<Tensor>(type, sizes_.size(), sizes_.data(), dim_order_.data(),
                                       strides_.data(), data_.data(), dynamism);
  }
}

void TestTensor::set(const std::vector<double>& values) {
  const Tensor& t = *tensor_;
  int64_t strides[runtime::kMaxTensorDims];
  portable::tensor_strides(t, strides);
  portable::dispatch<portable::kAll>(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    T* p = t.mutable_data_ptr<T>();
    for (size_t i = 0; i < values.size() && i < t.numel(); ++i) {
      p[portable::offset_of(int64_t(i), t.sizes().data(), strides, t.dim())] =
          portable::cast<T>(values[i]);
    }
  });
}

std::vector<double> TestTensor::get() const {
  const Tensor& t = *tensor_;
  std::vector<double> out(t.numel());
  int64_t strides[runtime::kMaxTensorDims];
  portable::tensor_strides(t, strides);
  portable::dispatch<portable::kAll>(t.scalar_type(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    const T* p = t.const_data_ptr<T>();
    for (size_t i = 0; i < out.size(); ++i) {
      out[i] = portable::cast<double>(
          p[portable::offset_of(int64_t(i), t.sizes().data(), strides, t.dim())]);
    }
  });
  return out;
}

std::unique_ptr<TestTensor> make(ScalarType type, std::vector<int32_t> sizes,
                                 const std::vector<double>& values,
                                 std::vector<uint8_t> dim_order) {
  auto t = std::make_unique<TestTensor>(type, std::move(sizes), std::move(dim_order));
  t->set(values);
  return t;
}

}  // namespace ember::kernels::testing
