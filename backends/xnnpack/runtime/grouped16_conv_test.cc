// Grouped16Conv against a direct grouped convolution written from the definition (double
// sums over the unpacked OHWI filter), on RegNetX's shapes and on edge cases (strides,
// asymmetric padding, pixel counts that are not multiples of the 8- and 4-pixel blocks, batch,
// clamping); the AVX-512F form and the portable loop give the same bits.
#include "backends/xnnpack/runtime/grouped16_conv.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

namespace ember::backends::xnnpack {
namespace {

struct Case {
  const char* name;
  Grouped16ConvShape s;
  float out_min, out_max;
};

uint32_t out_dim(uint32_t in, uint32_t k, uint32_t stride, uint32_t pad_begin, uint32_t pad_end) {
  return (in + pad_begin + pad_end - k) / stride + 1;
}

Grouped16ConvShape shape(uint32_t batch, uint32_t h, uint32_t w, uint32_t groups, uint32_t k, uint32_t stride,
                         uint32_t pad_top, uint32_t pad_left, uint32_t pad_bottom, uint32_t pad_right) {
  Grouped16ConvShape s;
  s.batch = batch;
  s.in_h = h;
  s.in_w = w;
  s.groups = groups;
  s.kernel_h = s.kernel_w = k;
  s.stride_h = s.stride_w = stride;
  s.pad_top = pad_top;
  s.pad_left = pad_left;
  s.out_h = out_dim(h, k, stride, pad_top, pad_bottom);
  s.out_w = out_dim(w, k, stride, pad_left, pad_right);
  return s;
}

// out[n][oy][ox][g 16 + o] = bias + sum over ky, kx, c of in[n][iy][ix][g 16 + c] x
// filter[g 16 + o][ky][kx][c], in double.
std::vector<double> reference(const Grouped16ConvShape& s, const std::vector<float>& in,
                              const std::vector<float>& filter, const std::vector<float>& bias, float lo,
                              float hi) {
  const uint32_t C = s.groups * 16;
  std::vector<double> out(size_t{s.batch} * s.out_h * s.out_w * C);
  for (uint32_t n = 0; n < s.batch; ++n) {
    for (uint32_t oy = 0; oy < s.out_h; ++oy) {
      for (uint32_t ox = 0; ox < s.out_w; ++ox) {
        for (uint32_t oc = 0; oc < C; ++oc) {
          const uint32_t g = oc / 16;
          double acc = bias.empty() ? 0.0 : bias[oc];
          for (uint32_t ky = 0; ky < s.kernel_h; ++ky) {
            for (uint32_t kx = 0; kx < s.kernel_w; ++kx) {
              const int iy = int(oy * s.stride_h + ky) - int(s.pad_top);
              const int ix = int(ox * s.stride_w + kx) - int(s.pad_left);
              if (iy < 0 || ix < 0 || iy >= int(s.in_h) || ix >= int(s.in_w)) continue;
              for (uint32_t c = 0; c < 16; ++c) {
                const double x = in[((size_t{n} * s.in_h + iy) * s.in_w + ix) * C + g * 16 + c];
                const double w = filter[((size_t{oc} * s.kernel_h + ky) * s.kernel_w + kx) * 16 + c];
                acc += x * w;
              }
            }
          }
          out[((size_t{n} * s.out_h + oy) * s.out_w + ox) * C + oc] = std::fmin(std::fmax(acc, lo), hi);
        }
      }
    }
  }
  return out;
}

void check(const Case& c, bool with_bias) {
  SCOPED_TRACE(c.name);
  const Grouped16ConvShape& s = c.s;
  const uint32_t C = s.groups * 16;
  std::mt19937 rng(1234 + s.groups * 7 + s.in_h);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> in(size_t{s.batch} * s.in_h * s.in_w * C), filter(size_t{C} * s.kernel_h * s.kernel_w * 16);
  std::vector<float> bias(with_bias ? C : 0);
  for (float& v : in) v = u(rng);
  for (float& v : filter) v = u(rng);
  for (float& v : bias) v = u(rng);
  std::vector<float> packed(grouped16_packed_floats(s.groups, s.kernel_h, s.kernel_w));
  pack_grouped16_filter(filter.data(), s.groups, s.kernel_h, s.kernel_w, packed.data());
  const size_t n_out = size_t{s.batch} * s.out_h * s.out_w * C;
  std::vector<float> fast(n_out, NAN), portable(n_out, NAN);
  const float* b = with_bias ? bias.data() : nullptr;
  grouped16_conv(s, in.data(), packed.data(), b, c.out_min, c.out_max, fast.data());
  grouped16_conv(s, in.data(), packed.data(), b, c.out_min, c.out_max, portable.data(), /*portable=*/true);
  const std::vector<double> ref = reference(s, in, filter, bias, c.out_min, c.out_max);
  double max_err = 0, max_ref = 0;
  for (size_t i = 0; i < n_out; ++i) {
    ASSERT_FALSE(std::isnan(fast[i])) << "output " << i << " not written";
    max_err = std::fmax(max_err, std::fabs(fast[i] - ref[i]));
    max_ref = std::fmax(max_ref, std::fabs(ref[i]));
    ASSERT_EQ(fast[i], portable[i]) << "output " << i << ": vectorized and portable differ";
  }
  // Sums of up to 9 x 16 products of [-1, 1] values in float: ~1e-6 relative.
  EXPECT_LT(max_err, 1e-5 * std::fmax(1.0, max_ref)) << "max |ref| " << max_ref;
  EXPECT_GT(max_ref, 0.5) << "the case must not be all clamped to zero";
}

TEST(Grouped16Conv, RegNetXShapes) {
  std::printf("vectorized (AVX-512F): %s\n", grouped16_vectorized() ? "yes" : "no");
  const float inf = INFINITY;
  const Case cases[] = {
      {"stage 4, 2x2x400, 3x3 pad 1", shape(1, 2, 2, 25, 3, 1, 1, 1, 1, 1), 0.f, inf},
      {"stage 3, 4x4x160, 3x3 pad 1", shape(1, 4, 4, 10, 3, 1, 1, 1, 1, 1), 0.f, inf},
      {"stage 4 entry, 4x4 -> 2x2, stride 2", shape(1, 4, 4, 25, 3, 2, 1, 1, 1, 1), 0.f, inf},
      {"stage 1 entry, 32x32x32 -> 16x16, stride 2", shape(1, 32, 32, 2, 3, 2, 1, 1, 1, 1), 0.f, inf},
  };
  for (const Case& c : cases) check(c, /*with_bias=*/true);
}

TEST(Grouped16Conv, EdgeCases) {
  const float inf = INFINITY;
  const Case cases[] = {
      {"9 pixels: one 8-block and one 4-block with 1", shape(1, 3, 3, 3, 3, 1, 1, 1, 1, 1), -inf, inf},
      {"15 pixels, asymmetric padding", shape(1, 5, 4, 2, 3, 1, 0, 2, 2, 0), -inf, inf},
      {"1x1 kernel, stride 2, batch 2", shape(2, 7, 5, 4, 1, 2, 0, 0, 0, 0), -inf, inf},
      {"5x5 kernel, clamp both sides", shape(1, 6, 6, 1, 5, 1, 2, 2, 2, 2), -0.5f, 0.75f},
      {"one pixel", shape(1, 1, 1, 5, 3, 1, 1, 1, 1, 1), -inf, inf},
  };
  for (const Case& c : cases) {
    check(c, /*with_bias=*/true);
    check(c, /*with_bias=*/false);
  }
}

TEST(Grouped16Conv, PackingPutsOutputChannelsInnermost) {
  // One group, 1x1 kernel: filter[o][c] = 100 o + c packs to packed[c][o].
  std::vector<float> filter(256), packed(grouped16_packed_floats(1, 1, 1));
  for (int o = 0; o < 16; ++o) {
    for (int c = 0; c < 16; ++c) filter[o * 16 + c] = float(100 * o + c);
  }
  pack_grouped16_filter(filter.data(), 1, 1, 1, packed.data());
  EXPECT_EQ(packed[0 * 16 + 1], 100.f);   // c 0, o 1
  EXPECT_EQ(packed[3 * 16 + 2], 203.f);   // c 3, o 2
  EXPECT_EQ(packed[15 * 16 + 15], 1515.f);
}

}  // namespace
}  // namespace ember::backends::xnnpack
