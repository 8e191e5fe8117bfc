// Element sizes of the .pte ScalarType codes (pte-format.md section 1.6), shared
// by the writer's validation and the .pte checker.
#pragma once

#include <cstdint>

#include "runtime/core/scalar_type.h"

namespace ember::aot {

// Bytes per element of ScalarType `code`, or 0 if the .pte schema does not define it
// (8..10 complex and 18..21 bit types are commented out of the schema). 9, complex64, is the
// exception: the FFT primitives (_fft_r2c of an STFT) produce it, and the runtime enum, ours
// and upstream's, reads it (8 bytes: real, imaginary float32).
inline int pte_element_size(int code) {
  if (code < 0 || code > 127 || code == 8 || code == 10 || (code >= 18 && code <= 21)) return 0;
  const auto type = static_cast<runtime::ScalarType>(code);
  return runtime::is_valid(type) ? static_cast<int>(runtime::element_size(type)) : 0;
}

// numel(sizes) * element size, or false on a negative size or overflow past 2^62.
template <typename SizeRange>
bool pte_tensor_nbytes(int scalar_type, const SizeRange& sizes, uint64_t* nbytes) {
  uint64_t n = static_cast<uint64_t>(pte_element_size(scalar_type));
  constexpr uint64_t kLimit = uint64_t{1} << 62;
  for (auto size : sizes) {
    if (size < 0) return false;
    uint64_t s = static_cast<uint64_t>(size);
    if (s != 0 && n > kLimit / s) return false;
    n *= s;
  }
  *nbytes = n;
  return true;
}

}  // namespace ember::aot
