// complex64 (ScalarType::ComplexFloat: interleaved float32 real and imaginary parts) kernels a
// spectrogram needs after the FFT library's _fft_r2c: the magnitude (abs.out on a complex
// input, which abs_out forwards here), and the conversions to and from float pairs
// (view_as_real_copy.out, view_as_complex_copy.out). Any dim order.
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::portable {

// abs of complex64 `in` into float32 `out` of the same shape: hypot(re, im).
runtime::Tensor& complex_abs_out(runtime::KernelRuntimeContext& ctx, const runtime::Tensor& in,
                                 runtime::Tensor& out);
// view_as_complex_copy.out(Tensor self, *, Tensor(a!) out): float32 [..., 2] -> complex64 [...].
runtime::Tensor& view_as_complex_copy_out(runtime::KernelRuntimeContext& ctx,
                                          const runtime::Tensor& in, runtime::Tensor& out);

}  // namespace ember::kernels::portable
