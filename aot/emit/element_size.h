// Element sizes of the .pte ScalarType codes (pte-format.md section 1.6), shared
// by the writer's validation and the .pte checker.
#pragma once

#include <cstdint>

namespace ember::aot {

// Bytes per element of ScalarType `code`, or 0 if the schema does not define it
// (8..10 complex and 18..21 bit types are commented out of the schema).
inline int pte_element_size(int code) {
  switch (code) {
    case 0:
    case 1:
    case 11:
    case 12:
    case 13:
    case 16:
    case 17:
    case 23:
    case 24:
    case 25:
    case 26:
      return 1;
    case 2:
    case 5:
    case 15:
    case 22:
    case 27:
      return 2;
    case 3:
    case 6:
    case 14:
    case 28:
      return 4;
    case 4:
    case 7:
    case 29:
      return 8;
    default:
      return 0;
  }
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
