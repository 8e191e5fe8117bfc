// Element conversions between storage types, following what PyTorch does on
// x86: float -> integer truncates toward zero, and NaN or out-of-range values
// give the integer minimum (never undefined behaviour); anything -> bool is
// "!= 0"; Half/BFloat16 go through float. Also type-erased loaders/storers for
// the mixed-dtype paths of the elementwise templates.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "kernels/portable/util/dispatch.h"

namespace ember::kernels::portable {

namespace detail {
template <typename To>
To float_to_int(double v) {
  if constexpr (std::is_same<To, int64_t>::value) {
    if (!(v >= -9223372036854775808.0 && v < 9223372036854775808.0)) return INT64_MIN;
    return static_cast<int64_t>(v);
  } else if constexpr (std::is_same<To, uint8_t>::value || std::is_same<To, int8_t>::value ||
                       std::is_same<To, int16_t>::value || std::is_same<To, int32_t>::value) {
    // Through int32 (as the compiled ATen code does), then truncation.
    if (!(v > -2147483649.0 && v < 2147483648.0)) return static_cast<To>(INT32_MIN);
    return static_cast<To>(static_cast<uint32_t>(static_cast<int32_t>(v)));
  } else {
    return static_cast<To>(v);
  }
}
}  // namespace detail

// Converts one value of type From to type To.
template <typename To, typename From>
inline To cast(From v) {
  if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (std::is_same<To, bool>::value) {
    return static_cast<compute_t<From>>(v) != compute_t<From>(0);
  } else if constexpr (std::is_same<To, Half>::value || std::is_same<To, BFloat16>::value) {
    return To(static_cast<float>(static_cast<compute_t<From>>(v)));
  } else if constexpr (std::is_same<From, Half>::value || std::is_same<From, BFloat16>::value) {
    return cast<To>(static_cast<float>(v));
  } else if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
    return detail::float_to_int<To>(static_cast<double>(v));
  } else {
    return static_cast<To>(v);
  }
}

template <typename CT>
using LoadFn = CT (*)(const void* base, int64_t index);
template <typename R>
using StoreFn = void (*)(void* base, int64_t index, R value);

template <typename CT, typename S>
CT load_as(const void* base, int64_t index) {
  return cast<CT>(static_cast<const S*>(base)[index]);
}
template <typename R, typename S>
void store_as(void* base, int64_t index, R value) {
  static_cast<S*>(base)[index] = cast<S>(value);
}

// Loader of elements of `type` as CT, or nullptr for an unsupported dtype.
template <typename CT>
LoadFn<CT> loader(ScalarType type) {
  LoadFn<CT> fn = nullptr;
  dispatch<kAll>(type, [&](auto tag) { fn = &load_as<CT, typename decltype(tag)::type>; });
  return fn;
}

// Storer of R values into elements of `type`, or nullptr.
template <typename R>
StoreFn<R> storer(ScalarType type) {
  StoreFn<R> fn = nullptr;
  dispatch<kAll>(type, [&](auto tag) { fn = &store_as<R, typename decltype(tag)::type>; });
  return fn;
}

}  // namespace ember::kernels::portable
