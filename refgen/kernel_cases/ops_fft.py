"""Case specs for ATen's FFT primitives (torch.stft, torch.fft.rfft/irfft/fft/ifft lower to
them); run by //kernels/fft:fft_cases_test against the KissFFT library (float32 only)."""
import torch

from registry import op


def cpx(c, shape):
    return torch.complex(c.rnd(shape), c.rnd(shape))


@op("aten::_fft_r2c.out", tol="reduce")
def fft_r2c(c):
    # Whisper's n_fft = 400 (2^4 * 5^2) frames, a power of two, an odd and a prime length (KissFFT's
    # generic butterfly), two dims, each normalization, a strided dim, the two-sided spectrum
    c.case("f32_stft_frames_400", self=c.rnd([2, 3, 400]), dim=[2], normalization=0,
           onesided=True)
    c.case("f32_pow2_64_norm_by_n", self=c.rnd([4, 64]), dim=[1], normalization=2,
           onesided=True)
    c.case("f32_odd_15_by_root_n", self=c.rnd([3, 15]), dim=[1], normalization=1,
           onesided=True)
    c.case("f32_prime_13_two_sided", self=c.rnd([2, 13]), dim=[1], normalization=0,
           onesided=False)
    c.case("f32_two_dims", self=c.rnd([2, 6, 8]), dim=[1, 2], normalization=0, onesided=True)
    c.case("f32_dim0_strided", self=c.rnd([16, 3]), dim=[0], normalization=0, onesided=True)
    c.case("f32_length_1", self=c.rnd([3, 1]), dim=[1], normalization=0, onesided=True)


@op("aten::_fft_c2r.out", tol="reduce")
def fft_c2r(c):
    # irfft (torch.fft passes wrapped, non-negative dims): the one-sided spectrum of an even and an odd length (imaginary parts at the zero and
    # Nyquist frequencies are ignored), two dims, and a longer input than last_dim_size needs
    c.case("f32_even_64", self=cpx(c, [3, 33]), dim=[1], normalization=2, last_dim_size=64)
    c.case("f32_odd_15", self=cpx(c, [2, 8]), dim=[1], normalization=2, last_dim_size=15)
    c.case("f32_400_no_norm", self=cpx(c, [2, 201]), dim=[1], normalization=0,
           last_dim_size=400)
    c.case("f32_two_dims_by_root_n", self=cpx(c, [4, 5, 4]), dim=[0, 2], normalization=1,
           last_dim_size=6)
    c.case("f32_extra_input_frequencies", self=cpx(c, [2, 10]), dim=[1], normalization=2,
           last_dim_size=8)


@op("aten::_fft_c2c.out", tol="reduce")
def fft_c2c(c):
    c.case("f32_forward_64", self=cpx(c, [3, 64]), dim=[1], normalization=0, forward=True)
    c.case("f32_inverse_by_n_odd", self=cpx(c, [2, 21]), dim=[1], normalization=2,
           forward=False)
    c.case("f32_two_dims_forward", self=cpx(c, [5, 6, 2]), dim=[0, 1], normalization=1,
           forward=True)
    c.case("f32_prime_7_inverse", self=cpx(c, [7]), dim=[0], normalization=0, forward=False)
