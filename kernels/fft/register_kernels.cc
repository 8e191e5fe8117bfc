// The FFT kernel library's table (see register_kernels.h).
#include "kernels/fft/register_kernels.h"

#include "kernels/fft/fft.h"
#include "kernels/portable/util/boxing.h"

namespace ember::kernels::fft {

namespace {

using portable::boxed;
using runtime::Kernel;

const Kernel kKernels[] = {
    {"aten::_fft_r2c.out", boxed<&fft_r2c_out>},
    {"aten::_fft_c2r.out", boxed<&fft_c2r_out>},
    {"aten::_fft_c2c.out", boxed<&fft_c2c_out>},
};

}  // namespace

runtime::Span<const Kernel> fft_kernels() {
  return {kKernels, sizeof(kKernels) / sizeof(kKernels[0])};
}

runtime::Error register_kernels(runtime::KernelRegistry& registry) {
  return registry.register_kernels(fft_kernels());
}

}  // namespace ember::kernels::fft
