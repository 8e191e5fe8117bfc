// Bounds-checked strided copy out of a storage.
#include "aot/frontend/loaded_tensor.h"

#include <cstring>

namespace ember::aot {
namespace {

constexpr uint64_t kMaxTensorBytes = uint64_t{16} << 30;          // 16 GiB
constexpr uint64_t kMaxExpansionFreeBytes = uint64_t{256} << 20;  // 256 MiB
constexpr uint64_t kMaxExpansion = 64;  // tensor bytes per storage byte beyond that

}  // namespace

Result<std::vector<uint8_t>> contiguous_bytes(const LoadedTensor& t, const std::string& what) {
  size_t elem = element_size(t.dtype);
  if (elem == 0) return invalid_data(what + ": tensor has no element type");
  if (t.sizes.size() != t.strides.size()) {
    return invalid_data(what + ": " + std::to_string(t.sizes.size()) + " sizes but " +
                        std::to_string(t.strides.size()) + " strides");
  }
  if (t.storage_offset < 0) return invalid_data(what + ": negative storage offset");
  int64_t numel = 1;
  int64_t last = t.storage_offset;  // highest element index touched
  for (size_t d = 0; d < t.sizes.size(); ++d) {
    int64_t size = t.sizes[d];
    int64_t stride = t.strides[d];
    if (size < 0 || stride < 0) {
      return invalid_data(what + ": negative size or stride in dim " + std::to_string(d));
    }
    int64_t reach;
    if (__builtin_mul_overflow(numel, size, &numel) ||
        (size > 0 && (__builtin_mul_overflow(size - 1, stride, &reach) ||
                      __builtin_add_overflow(last, reach, &last)))) {
      return invalid_data(what + ": tensor size overflows");
    }
  }
  size_t storage_elems = t.storage ? t.storage->size() / elem : 0;
  if (numel > 0 && static_cast<uint64_t>(last) >= storage_elems) {
    return invalid_data(what + ": view reaches element " + std::to_string(last) +
                        " but the storage holds " + std::to_string(storage_elems) + " elements");
  }
  // A view may repeat elements (stride 0): bound what a small file can make us allocate.
  uint64_t bytes = static_cast<uint64_t>(numel) * elem;  // numel * elem <= 2^63 * 16: checked
  uint64_t storage_bytes = t.storage ? t.storage->size() : 0;
  if (numel > (int64_t{1} << 40) || bytes > kMaxTensorBytes ||
      (bytes > kMaxExpansionFreeBytes && bytes > storage_bytes * kMaxExpansion)) {
    return invalid_data(what + ": tensor of " + std::to_string(bytes) +
                        " bytes from a storage of " + std::to_string(storage_bytes) +
                        " bytes is implausibly large");
  }
  std::vector<uint8_t> out(static_cast<size_t>(bytes));
  if (numel == 0) return out;
  const uint8_t* src = t.storage->data();
  size_t rank = t.sizes.size();
  bool contiguous = true;  // fast path: one copy
  int64_t expected_stride = 1;
  for (size_t d = rank; d-- > 0;) {
    if (t.sizes[d] != 1 && t.strides[d] != expected_stride) contiguous = false;
    expected_stride *= t.sizes[d];
  }
  if (contiguous) {
    std::memcpy(out.data(), src + static_cast<size_t>(t.storage_offset) * elem, out.size());
    return out;
  }
  std::vector<int64_t> index(rank, 0);
  for (int64_t i = 0; i < numel; ++i) {
    int64_t off = t.storage_offset;
    for (size_t d = 0; d < rank; ++d) off += index[d] * t.strides[d];
    std::memcpy(out.data() + static_cast<size_t>(i) * elem, src + static_cast<size_t>(off) * elem,
                elem);
    for (size_t d = rank; d-- > 0;) {
      if (++index[d] < t.sizes[d]) break;
      index[d] = 0;
    }
  }
  return out;
}

}  // namespace ember::aot
