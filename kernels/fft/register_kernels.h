// The FFT kernel library's entry point: registers aten::_fft_r2c.out, _fft_c2r.out and
// _fft_c2c.out. An optional library (it links KissFFT): a program that runs spectrogram
// front ends calls this after kernels::portable::register_kernels.
#pragma once

#include "runtime/core/error.h"
#include "runtime/core/span.h"
#include "runtime/kernel/kernel_registry.h"

namespace ember::kernels::fft {

// Registers the FFT kernels; errors as KernelRegistry::register_kernels.
runtime::Error register_kernels(runtime::KernelRegistry& registry);

// The table register_kernels uses.
runtime::Span<const runtime::Kernel> fft_kernels();

}  // namespace ember::kernels::fft
