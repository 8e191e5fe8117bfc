// TensorSpec helpers: numel, byte size, dim order, printing.
#include "aot/ir/tensor_spec.h"

#include <algorithm>
#include <numeric>

namespace ember::aot {

bool TensorSpec::is_static() const {
  for (const SymInt& s : sizes) {
    if (!s.is_static) return false;
  }
  return true;
}

int64_t TensorSpec::static_numel() const {
  int64_t n = 1;
  for (const SymInt& s : sizes) {
    if (!s.is_static || s.value < 0 || __builtin_mul_overflow(n, s.value, &n)) return -1;
  }
  return n;
}

int64_t TensorSpec::static_nbytes() const {
  int64_t n = static_numel();
  int64_t bytes;
  if (n < 0 || element_size(dtype) == 0 ||
      __builtin_mul_overflow(n, static_cast<int64_t>(element_size(dtype)), &bytes)) {
    return -1;
  }
  return bytes;
}

std::string TensorSpec::to_string() const {
  std::string out = ::ember::aot::to_string(dtype);
  out += "[";
  for (size_t i = 0; i < sizes.size(); ++i) {
    if (i > 0) out += ", ";
    out += sizes[i].to_string();
  }
  out += "]";
  bool identity = true;
  for (size_t i = 0; i < dim_order.size(); ++i) identity = identity && dim_order[i] == i;
  if (!identity) {
    out += "{";
    for (size_t i = 0; i < dim_order.size(); ++i) {
      if (i > 0) out += ",";
      out += std::to_string(dim_order[i]);
    }
    out += "}";
  }
  return out;
}

std::vector<uint8_t> dim_order_from_strides(const std::vector<SymInt>& sizes,
                                            const std::vector<SymInt>& strides) {
  std::vector<uint8_t> order(sizes.size());
  std::iota(order.begin(), order.end(), 0);
  if (strides.size() != sizes.size()) return order;
  for (const SymInt& s : strides) {
    if (!s.is_static) return order;
  }
  std::stable_sort(order.begin(), order.end(),
                   [&](uint8_t a, uint8_t b) { return strides[a].value > strides[b].value; });
  return order;
}

}  // namespace ember::aot
