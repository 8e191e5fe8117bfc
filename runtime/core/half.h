// Half (IEEE float16) and BFloat16 storage types with conversions to and from
// float. Arithmetic happens in float: kernels load, compute in float, store.
// Conversions round to nearest even, keep NaN/inf, and handle subnormals.
#pragma once

#include <cstdint>
#include <cstring>

namespace ember::runtime {

namespace detail {
inline uint32_t float_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof(u));
  return u;
}
inline float bits_float(uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof(f));
  return f;
}
}  // namespace detail

struct BFloat16 {
  uint16_t bits = 0;

  BFloat16() = default;
  BFloat16(float f) : bits(from_float(f)) {}  // NOLINT
  operator float() const { return detail::bits_float(uint32_t(bits) << 16); }  // NOLINT

  static uint16_t from_float(float f) {
    const uint32_t u = detail::float_bits(f);
    if ((u & 0x7fffffffu) > 0x7f800000u) return uint16_t((u >> 16) | 0x40);  // quiet NaN
    const uint32_t rounding = 0x7fffu + ((u >> 16) & 1u);
    return uint16_t((u + rounding) >> 16);
  }
};

struct Half {
  uint16_t bits = 0;

  Half() = default;
  Half(float f) : bits(from_float(f)) {}  // NOLINT
  operator float() const { return to_float(bits); }  // NOLINT

  static float to_float(uint16_t h) {
    const uint32_t sign = uint32_t(h & 0x8000u) << 16;
    const uint32_t exponent = (h >> 10) & 0x1fu;
    const uint32_t mantissa = h & 0x3ffu;
    if (exponent == 0x1f) return detail::bits_float(sign | 0x7f800000u | (mantissa << 13));
    if (exponent != 0) {
      return detail::bits_float(sign | ((exponent + 112) << 23) | (mantissa << 13));
    }
    // Zero or subnormal: mantissa * 2^-24.
    const float magnitude = float(mantissa) * 5.9604644775390625e-8f;
    return sign != 0 ? -magnitude : magnitude;
  }

  static uint16_t from_float(float f) {
    const uint32_t u = detail::float_bits(f);
    const uint16_t sign = uint16_t((u >> 16) & 0x8000u);
    const uint32_t abs = u & 0x7fffffffu;
    if (abs > 0x7f800000u) return uint16_t(sign | 0x7e00u);    // NaN
    if (abs >= 0x477ff000u) return uint16_t(sign | 0x7c00u);   // overflow -> inf
    if (abs < 0x38800000u) {                                    // subnormal or zero
      // Round abs * 2^24 to nearest even integer.
      const float scaled = detail::bits_float(abs) * 16777216.0f;
      uint32_t m = uint32_t(scaled);
      const float rest = scaled - float(m);
      if (rest > 0.5f || (rest == 0.5f && (m & 1u))) ++m;
      return uint16_t(sign | m);
    }
    const uint32_t rounded = abs + 0xfffu + ((abs >> 13) & 1u);
    return uint16_t(sign | ((rounded - (112u << 23)) >> 13));
  }
};

static_assert(sizeof(Half) == 2 && sizeof(BFloat16) == 2, "16-bit storage types");

}  // namespace ember::runtime
