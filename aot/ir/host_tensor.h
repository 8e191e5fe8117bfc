// HostTensor: a dense, C-contiguous tensor in host memory, used to pass inputs to and
// outputs from ExportSession::run_method / run_pte_method.
#pragma once

#include <cstdint>
#include <vector>

#include "aot/ir/scalar_type.h"

namespace ember::aot {

struct HostTensor {
  ScalarType dtype = ScalarType::Float;
  std::vector<int64_t> sizes;
  std::vector<uint8_t> bytes;  // numel * element_size(dtype), C-contiguous

  int64_t numel() const {
    int64_t n = 1;
    for (int64_t s : sizes) n *= s;
    return n;
  }
};

}  // namespace ember::aot
