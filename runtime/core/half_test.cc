#include "runtime/core/half.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace ember::runtime {
namespace {

// Bit patterns from the IEEE 754 binary16 definition.
TEST(Half, KnownBitPatterns) {
  EXPECT_EQ(Half(1.0f).bits, 0x3c00);
  EXPECT_EQ(Half(-2.0f).bits, 0xc000);
  EXPECT_EQ(Half(65504.0f).bits, 0x7bff);               // largest finite
  EXPECT_EQ(Half(65520.0f).bits, 0x7c00);               // rounds to inf
  EXPECT_EQ(Half(std::ldexp(1.0f, -24)).bits, 0x0001);  // smallest subnormal
  EXPECT_EQ(Half(std::ldexp(1.0f, -14)).bits, 0x0400);  // smallest normal
  EXPECT_EQ(Half(0.333251953125f).bits, 0x3555);        // 1/3 rounded
  EXPECT_EQ(Half(std::numeric_limits<float>::infinity()).bits, 0x7c00);
  EXPECT_TRUE(std::isnan(float(Half(std::nanf("")))));
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even -> 1.
  EXPECT_EQ(Half(1.0f + std::ldexp(1.0f, -11)).bits, 0x3c00);
}

TEST(Half, RoundTripsEveryFiniteValue) {
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if ((bits & 0x7c00) == 0x7c00) continue;  // inf / NaN
    Half h;
    h.bits = uint16_t(bits);
    ASSERT_EQ(Half(float(h)).bits, bits) << bits;
  }
}

TEST(BFloat16, KnownBitPatterns) {
  EXPECT_EQ(BFloat16(1.0f).bits, 0x3f80);
  EXPECT_EQ(BFloat16(-1.5f).bits, 0xbfc0);
  EXPECT_EQ(float(BFloat16(3.0f)), 3.0f);
  // 1 + 2^-8 is halfway between 1 and 1 + 2^-7: ties to even -> 1.
  EXPECT_EQ(BFloat16(1.0f + std::ldexp(1.0f, -8)).bits, 0x3f80);
  EXPECT_TRUE(std::isnan(float(BFloat16(std::nanf("")))));
}

}  // namespace
}  // namespace ember::runtime
