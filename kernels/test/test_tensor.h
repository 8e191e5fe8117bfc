// TestTensor: an owning tensor for kernel tests (test code may use
// std::vector). Holds sizes, dim order and bytes, and exposes a runtime
// Tensor viewing them. Helpers build float/int/bool tensors from values given
// in logical (row-major) order, in any dim order, and read them back.
#pragma once

#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "kernels/portable/util/cast.h"
#include "runtime/core/tensor.h"

namespace ember::kernels::testing {

using runtime::ScalarType;
using runtime::Tensor;

class TestTensor {
 public:
  // A zero-filled tensor; `dim_order` empty means contiguous. `capacity`
  // (elements) > numel makes it DYNAMIC_BOUND.
  TestTensor(ScalarType type, std::vector<int32_t> sizes, std::vector<uint8_t> dim_order = {},
             size_t capacity = 0);
  TestTensor(const TestTensor&) = delete;
  TestTensor& operator=(const TestTensor&) = delete;

  Tensor& t() { return *tensor_; }
  const Tensor& t() const { return *tensor_; }

  // Writes values given in logical row-major order (converted to the dtype).
  void set(const std::vector<double>& values);
  // Reads all elements in logical row-major order as double.
  std::vector<double> get() const;

 private:
  std::vector<int32_t> sizes_;
  std::vector<uint8_t> dim_order_;
  std::vector<int32_t> strides_;
  std::vector<uint64_t> data_;  // 8-byte aligned storage
  std::unique_ptr<Tensor> tensor_;
};

// Convenience: a tensor with values.
std::unique_ptr<TestTensor> make(ScalarType type, std::vector<int32_t> sizes,
                                 const std::vector<double>& values,
                                 std::vector<uint8_t> dim_order = {});

}  // namespace ember::kernels::testing
