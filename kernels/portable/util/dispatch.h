// Dtype dispatch: one switch over ScalarType that calls a generic lambda with a
// typed tag (`[&](auto tag) { using T = typename decltype(tag)::type; ... }`).
// Each dispatch_* function accepts one family of dtypes and returns false for
// anything else, so the caller can fail with a message naming the dtype.
// compute_t<T> is the type arithmetic happens in (float for Half/BFloat16).
#pragma once

#include <cstdint>
#include <type_traits>

#include "runtime/core/half.h"
#include "runtime/core/scalar_type.h"

// Selective build by dtype (ember_selective_kernels(dtype_selective = True)): the generated
// selection header, named by EMBER_DTYPE_SELECTION_HEADER, defines EMBER_SELECTED_DTYPES, a bit
// mask over ScalarType codes (bit 6 = Float, ...). Every dispatch below then compiles only the
// cases in the mask, and an unselected dtype takes the "unsupported dtype" error path. Without a
// selection header every dtype is compiled (the default build).
#if defined(EMBER_DTYPE_SELECTION_HEADER)
#include EMBER_DTYPE_SELECTION_HEADER
#endif
#if !defined(EMBER_SELECTED_DTYPES)
#define EMBER_SELECTED_DTYPES (~0ull)
#endif

namespace ember::kernels::portable {

using runtime::BFloat16;
using runtime::Half;
using runtime::ScalarType;

template <typename T>
struct TypeTag {
  using type = T;
};

// Type arithmetic on T is done in.
template <typename T>
struct ComputeType {
  using type = T;
};
template <>
struct ComputeType<Half> {
  using type = float;
};
template <>
struct ComputeType<BFloat16> {
  using type = float;
};
template <typename T>
using compute_t = typename ComputeType<T>::type;

// The ScalarType of a C++ storage type.
template <typename T>
constexpr ScalarType dtype_of();
template <> constexpr ScalarType dtype_of<uint8_t>() { return ScalarType::Byte; }
template <> constexpr ScalarType dtype_of<int8_t>() { return ScalarType::Char; }
template <> constexpr ScalarType dtype_of<int16_t>() { return ScalarType::Short; }
template <> constexpr ScalarType dtype_of<int32_t>() { return ScalarType::Int; }
template <> constexpr ScalarType dtype_of<int64_t>() { return ScalarType::Long; }
template <> constexpr ScalarType dtype_of<Half>() { return ScalarType::Half; }
template <> constexpr ScalarType dtype_of<float>() { return ScalarType::Float; }
template <> constexpr ScalarType dtype_of<double>() { return ScalarType::Double; }
template <> constexpr ScalarType dtype_of<bool>() { return ScalarType::Bool; }
template <> constexpr ScalarType dtype_of<BFloat16>() { return ScalarType::BFloat16; }

template <typename T>
constexpr bool is_float_v = std::is_floating_point<T>::value || std::is_same<T, Half>::value ||
                            std::is_same<T, BFloat16>::value;

// Dtype families accepted by the dispatch functions below (bit flags).
enum DtypeFamily : unsigned {
  kBool = 1u,
  kInts = 2u,      // uint8, int8, int16, int32, int64
  kFloats = 4u,    // float32, float64
  kReduced = 8u,   // float16, bfloat16
  kAllFloats = kFloats | kReduced,
  kReal = kInts | kAllFloats,
  kAll = kBool | kReal,
};

// Whether this build compiles kernels for `type` (EMBER_SELECTED_DTYPES above).
constexpr bool dtype_selected(ScalarType type) {
  return ((static_cast<unsigned long long>(EMBER_SELECTED_DTYPES) >> static_cast<unsigned>(type)) & 1u) != 0;
}

// Calls f(TypeTag<T>{}) for `type` if it is in `Families` and selected (only those
// instantiations are compiled); returns false otherwise.
template <unsigned Families, typename F>
bool dispatch(ScalarType type, F&& f) {
#define EMBER_DISPATCH_CASE_(family, code, T)                                      \
  case ScalarType::code:                                                           \
    if constexpr ((Families & (family)) != 0 && dtype_selected(ScalarType::code)) { \
      f(TypeTag<T>{});                                 \
      return true;                                     \
    } else {                                           \
      return false;                                    \
    }
  switch (type) {
    EMBER_DISPATCH_CASE_(kBool, Bool, bool)
    EMBER_DISPATCH_CASE_(kInts, Byte, uint8_t)
    EMBER_DISPATCH_CASE_(kInts, Char, int8_t)
    EMBER_DISPATCH_CASE_(kInts, Short, int16_t)
    EMBER_DISPATCH_CASE_(kInts, Int, int32_t)
    EMBER_DISPATCH_CASE_(kInts, Long, int64_t)
    EMBER_DISPATCH_CASE_(kFloats, Float, float)
    EMBER_DISPATCH_CASE_(kFloats, Double, double)
    EMBER_DISPATCH_CASE_(kReduced, Half, Half)
    EMBER_DISPATCH_CASE_(kReduced, BFloat16, BFloat16)
    default:
      return false;
  }
#undef EMBER_DISPATCH_CASE_
}

}  // namespace ember::kernels::portable
