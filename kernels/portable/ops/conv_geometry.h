// ConvGeometry: the shapes, strides and parameters of one 2-D convolution
// (1-D convs are 2-D with height 1), validated from the ATen arguments, plus
// the conv implementations convolution_out chooses between.
#pragma once

#include <cstdint>

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// A size build (kernels/portable/copts.bzl, EMBER_SIZE_BUILD) keeps one float32 convolution path
// per case: the direct depthwise loop and the im2col GEMM, without the shape-specific fast paths.
#if defined(EMBER_SIZE_BUILD)
constexpr bool kOneConvPath = true;
#else
constexpr bool kOneConvPath = false;
#endif

struct ConvGeometry {
  int64_t n = 0, c_in = 0, h = 0, w = 0;    // input
  int64_t c_out = 0, oh = 0, ow = 0;        // output
  int64_t kh = 0, kw = 0;                   // kernel
  int64_t sy = 1, sx = 1, py = 0, px = 0, dy = 1, dx = 1, opy = 0, opx = 0;
  int64_t groups = 1;
  bool transposed = false;
  // Element strides (N, C, H, W) of input, output and weight (Cout, Cin/g, kh, kw;
  // for transposed: Cin, Cout/g, kh, kw).
  int64_t is[4] = {}, os[4] = {}, ws[4] = {};
};

// Fills `g` from the arguments (checking ranks, channel counts, positivity);
// fails ctx and returns false on invalid arguments.
bool conv_geometry(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& in,
                   const runtime::Tensor& weight, const runtime::Tensor* bias, IntList stride,
                   IntList padding, IntList dilation, bool transposed, IntList output_padding,
                   int64_t groups, ConvGeometry* g);

// float32 implicit-GEMM conv (not transposed).
void conv_gemm_f32(const ConvGeometry& g, const float* in, const float* weight, const float* bias,
                   float* out, runtime::ThreadPool* pool);
// float32 stride-1 conv over a zero-padded input copy, B read in place
// (conv_padded.cc); false (nothing written) when the shape or layout does not
// suit it or the temp allocator cannot supply its buffers.
bool conv_padded_applies(const ConvGeometry& g);
bool conv_padded_f32(runtime::KernelRuntimeContext& ctx, const ConvGeometry& g, const float* in,
                     const float* weight, const float* bias, float* out);
// float32 grouped (groups > 1, not depthwise) conv with at most 16 output positions: per
// group, a transposed im2col in temp memory and the GEMM's few-columns path
// (conv_small.cc); false (nothing written) when it does not apply or temp memory is short.
bool conv_small_plane_applies(const ConvGeometry& g);
bool conv_small_plane_f32(runtime::KernelRuntimeContext& ctx, const ConvGeometry& g,
                          const float* in, const float* weight, const float* bias, float* out);
// The 3x3 depthwise paths (portable, AVX2, NEON) work on a zero-padded copy of one channel
// plane: at most kDepthwiseMaxPadded floats, filled by copy_into_padded_plane, which copies
// plane (n, c) of `in` into `pad` (row pitch pw, rows offset by the padding) and leaves the
// borders as they are.
constexpr int64_t kDepthwiseMaxPadded = 128 * 128;
inline void copy_into_padded_plane(const ConvGeometry& g, const float* in, int64_t n, int64_t c,
                                   int64_t pw, float* pad) {
  const float* pi = in + n * g.is[0] + c * g.is[1];
  for (int64_t y = 0; y < g.h; ++y) {
    const float* src = pi + y * g.is[2];
    float* dst = pad + (y + g.py) * pw + g.px;
    for (int64_t x = 0; x < g.w; ++x) dst[x] = src[x];
  }
}

// float32 depthwise conv (groups == c_in == c_out).
void conv_depthwise_f32(const ConvGeometry& g, const float* in, const float* weight,
                        const float* bias, float* out);
// The depthwise fast paths of one instruction set (conv_depthwise_impl.inc): K x K kernels
// (K = 3, 5, 7) without dilation; false when none applies.
using DepthwiseFastFn = bool (*)(const ConvGeometry& g, const float* in, const float* weight,
                                 const float* bias, float* out);
// The AVX2 build (conv_depthwise_avx2.cc), or nullptr when this build or CPU has none.
DepthwiseFastFn depthwise_fast_avx2();
// The aarch64 NEON 3x3 path for planes at least 8 outputs wide (conv_depthwise_neon.cc),
// called after the 3x3 shape checks; false (nothing written) at column strides other than
// 1 and 2 and on other targets.
bool depthwise_3x3_neon(const ConvGeometry& g, const float* in, const float* weight,
                        const float* bias, float* out);
// Any dtype, any conv (reference loops; accumulates in the compute type).
bool conv_reference(const ConvGeometry& g, const runtime::Tensor& in,
                    const runtime::Tensor& weight, const runtime::Tensor* bias,
                    runtime::Tensor& out);

}  // namespace ember::kernels::portable
