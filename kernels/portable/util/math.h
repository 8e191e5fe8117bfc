// Scalar math shared by kernels, with ATen/Python semantics and no undefined
// behaviour: wrapping integer add/sub/mul, Python floor division and modulo
// (flagging division by zero for integers), integer power, NaN-propagating
// max/min, and shifts that saturate like ATen's.
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

namespace ember::kernels::portable {

// x < 0 without a warning for unsigned types.
template <typename T>
inline bool is_neg(T x) {
  if constexpr (std::is_signed<T>::value) {
    return x < 0;
  } else {
    return false;
  }
}

template <typename T>
inline T add_wrap(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) + static_cast<U>(b)));
  } else {
    return a + b;
  }
}
template <typename T>
inline T sub_wrap(T a, T b) {
  if constexpr (std::is_integral<T>::value && !std::is_same<T, bool>::value) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) - static_cast<U>(b)));
  } else {
    return a - b;
  }
}
template <typename T>
inline T mul_wrap(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && b;
  } else if constexpr (std::is_integral<T>::value) {
    using U = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) * static_cast<U>(b)));
  } else {
    return a * b;
  }
}

// Integer a / b truncating; b == 0 sets *zero. MIN / -1 wraps.
template <typename T>
inline T int_div_trunc(T a, T b, bool* zero) {
  if (b == 0) {
    *zero = true;
    return 0;
  }
  if (is_neg(b) && b == T(-1)) return sub_wrap<T>(T(0), a);
  return static_cast<T>(a / b);
}

// Python floor division for integers.
template <typename T>
inline T int_div_floor(T a, T b, bool* zero) {
  const T q = int_div_trunc(a, b, zero);
  if (b == 0 || (is_neg(b) && b == T(-1))) return q;
  const T r = static_cast<T>(a % b);
  return (r != 0 && (is_neg(r) != is_neg(b))) ? static_cast<T>(q - 1) : q;
}

// Python floor division for floats (ATen's div_floor).
template <typename T>
inline T float_div_floor(T a, T b) {
  if (b == 0) return a / b;
  const T mod = std::fmod(a, b);
  T div = (a - mod) / b;
  if (mod != 0 && ((b < 0) != (mod < 0))) div -= T(1);
  if (div == 0) return std::copysign(T(0), a / b);
  T floored = std::floor(div);
  if (div - floored > T(0.5)) floored += T(1);
  return floored;
}

// Integer C fmod (sign of a); zero sets *zero.
template <typename T>
inline T int_fmod(T a, T b, bool* zero) {
  if (b == 0) {
    *zero = true;
    return 0;
  }
  if (is_neg(b) && b == T(-1)) return 0;
  return static_cast<T>(a % b);
}

// C fmod for floats as PyTorch's vectorised CPU kernels compute it: exact,
// except that a quotient overflowing double gives NaN.
template <typename T>
inline T float_fmod(T a, T b) {
  const double q = static_cast<double>(a) / static_cast<double>(b);
  if (std::isinf(q) && std::isfinite(a) && b != 0) return std::numeric_limits<T>::quiet_NaN();
  return std::fmod(a, b);
}

// Python modulo (sign of b).
template <typename T>
inline T int_remainder(T a, T b, bool* zero) {
  const T r = int_fmod(a, b, zero);
  return (r != 0 && (is_neg(r) != is_neg(b))) ? static_cast<T>(r + b) : r;
}
template <typename T>
inline T float_remainder(T a, T b) {
  T r = float_fmod(a, b);
  if (r != 0 && ((b < 0) != (r < 0))) r += b;
  return r;
}

// Integer power by squaring (wrapping); negative exponents give 1/x truncated.
template <typename T>
inline T int_pow(T base, T exp) {
  if constexpr (std::is_signed<T>::value) {
    if (exp < 0) {
      if (base == 1) return 1;
      if (base == -1) return (exp % 2 == 0) ? 1 : -1;
      return 0;
    }
  }
  T result = 1;
  while (exp != 0) {
    if (exp & 1) result = mul_wrap<T>(result, base);
    exp = static_cast<T>(exp >> 1);
    base = mul_wrap<T>(base, base);
  }
  return result;
}

// max/min that propagate NaN (a NaN `a` wins, else a NaN `b` since no comparison with it
// holds; ties give b). Written as one select so loops over them vectorise.
template <typename T>
inline T nan_max(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    return (a > b || a != a) ? a : b;
  } else {
    return a > b ? a : b;
  }
}
template <typename T>
inline T nan_min(T a, T b) {
  if constexpr (std::is_floating_point<T>::value) {
    return (a < b || a != a) ? a : b;
  } else {
    return a < b ? a : b;
  }
}

template <typename T>
inline T shift_left(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && !b;
  } else {
    constexpr T bits = static_cast<T>(sizeof(T) * 8);
    if (is_neg(b) || b >= bits) return 0;
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << b));
  }
}
template <typename T>
inline T shift_right(T a, T b) {
  if constexpr (std::is_same<T, bool>::value) {
    return a && !b;
  } else {
    constexpr T bits = static_cast<T>(sizeof(T) * 8);
    if (is_neg(b) || b >= bits) return is_neg(a) ? T(-1) : T(0);
    return static_cast<T>(a >> b);
  }
}

}  // namespace ember::kernels::portable
