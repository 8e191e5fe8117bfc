// Discrete Fourier transforms of ATen's FFT primitives (the ops torch.stft, torch.fft.rfft,
// irfft, fft and ifft lower to), computed with KissFFT (Debian's libkissfft-dev, float build).
// complex64 tensors are ScalarType::ComplexFloat: interleaved (real, imaginary) float pairs.
// float32 / complex64 only: Debian 12 builds KissFFT for float alone, and audio front ends
// run in float32; other dtypes fail with InvalidType.
//
// Every transform runs along each listed dim in turn, one line at a time: the line is read
// (strided) from its tensor, transformed by kiss_fft into a contiguous buffer and written back.
// The plan and the line buffers come from the context's temp allocator (KissFFT is given the
// memory, so it never calls malloc, except inside its generic butterfly for prime factors
// above 5: one small scratch block per butterfly).
// normalization follows ATen's fft_norm_mode: 0 none, 1 by 1/sqrt(n), 2 by 1/n, n the product
// of the signal sizes over `dim` (the full real length for r2c and c2r).
#pragma once

#include "kernels/portable/util/boxing.h"
#include "runtime/core/tensor.h"
#include "runtime/kernel/kernel_runtime_context.h"

namespace ember::kernels::fft {

using portable::IntList;
using runtime::KernelRuntimeContext;
using runtime::Tensor;

// _fft_r2c.out(Tensor self, int[] dim, int normalization, bool onesided, *, Tensor(a!) out):
// the forward transform of real `self` over `dim`; with onesided the last listed dim keeps
// n/2 + 1 frequencies. out is complex64.
Tensor& fft_r2c_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, bool onesided, Tensor& out);

// _fft_c2r.out(Tensor self, int[] dim, int normalization, SymInt last_dim_size, *,
// Tensor(a!) out): the inverse transform of a one-sided Hermitian spectrum; the last listed
// dim of out has last_dim_size samples and reads the first last_dim_size/2 + 1 inputs (the
// imaginary parts of the zero and Nyquist frequencies are ignored, as a real signal's are 0).
Tensor& fft_c2r_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, int64_t last_dim_size, Tensor& out);

// _fft_c2c.out(Tensor self, SymInt[] dim, int normalization, bool forward, *, Tensor(a!) out):
// the forward (e^{-2 pi i kt/n}) or inverse (e^{+...}) complex transform over `dim`.
Tensor& fft_c2c_out(KernelRuntimeContext& ctx, const Tensor& self, IntList dim,
                    int64_t normalization, bool forward, Tensor& out);

}  // namespace ember::kernels::fft
