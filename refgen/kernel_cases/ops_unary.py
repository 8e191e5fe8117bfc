"""Case specs for unary math ops and activations."""
import torch

from families import ALL, BF16, BOOL, F16, F32, F64, FLOATS, I32, I64, U8, dtypes_except, unary
from registry import op
from casegen import short

FLOAT_MATH = ["exp", "log", "sqrt", "rsqrt", "sin", "cos", "tan", "sinh", "cosh", "asin", "acos",
              "atan", "asinh", "acosh", "atanh", "erf", "expm1", "log1p", "log2", "log10",
              "reciprocal", "sigmoid", "tanh", "ceil", "floor", "round", "trunc"]


@op(*["aten::%s.out" % n for n in FLOAT_MATH])
def float_math(c):
    name = c.op_key.split("::")[1].split(".")[0]
    domain = {"log": (0.05, 5.0), "sqrt": (0.0, 5.0), "rsqrt": (0.05, 5.0), "asin": (-1, 1),
              "acos": (-1, 1), "atanh": (-0.99, 0.99), "acosh": (1.0, 5.0), "log1p": (-0.9, 4),
              "log2": (0.05, 5.0), "log10": (0.05, 5.0)}.get(name)
    unary(c, domain=domain)
    c.case("f32_out_of_domain", self=c.rnd([6], F32, -6, 6))
    if name in ("exp", "sigmoid", "tanh", "expm1"):
        c.case("f32_large_magnitude", self=c.rnd([8], F32, -100, 100))
    if name in ("ceil", "floor", "round", "trunc"):
        c.case("f32_halves", self=c.rnd([8], F32).round() + 0.5)


@op("aten::neg.out")
def neg(c):
    unary(c, dtypes=dtypes_except(BOOL))
    c.case("bool_error", self=c.rnd([3], BOOL), expect=True)


@op("aten::abs.out", "aten::sign.out")
def abs_out(c):
    unary(c)
    if c.op_key == "aten::abs.out":  # a spectrogram's magnitude: complex64 in, float32 out
        c.case("c64_magnitude", self=torch.complex(c.rnd([3, 5]), c.rnd([3, 5])))


@op("aten::isnan.out", "aten::isinf.out")
def isnan(c):
    unary(c)


@op("aten::relu.out")
def relu(c):
    unary(c, dtypes=dtypes_except(BOOL))


@op("aten::hardtanh.out")
def hardtanh(c):
    unary(c, dtypes=dtypes_except(BOOL, U8))
    c.case("f32_min_m2_max_0p5", self=c.rnd([3, 4]), min_val=-2.0, max_val=0.5)
    c.case("f32_relu6", self=c.rnd([3, 4], F32, -8, 8), min_val=0.0, max_val=6.0)
    c.case("i32_int_bounds", self=c.rnd([3, 4], I32), min_val=-3, max_val=3, optional=True)


@op("aten::gelu.out")
def gelu(c):
    for approx in ["none", "tanh"]:
        for dt in FLOATS:
            c.case("%s_%s_2x3" % (approx, short(dt)), self=c.rnd([2, 3], dt), approximate=approx)
        c.case("%s_f32_1x4x5" % approx, self=c.rnd([1, 4, 5]), approximate=approx)
        c.case("%s_special_values" % approx, self=c.special(F32), approximate=approx)
        c.case("%s_empty" % approx, self=c.rnd([0, 2]), approximate=approx)
        c.case("%s_channels_last" % approx, self=c.cl(c.rnd([1, 3, 2, 2])), approximate=approx)
    c.case("bad_approximate_error", self=c.rnd([3]), approximate="fast", expect=True)


@op("aten::hardswish.out", "aten::hardsigmoid.out", "aten::silu.out")
def hardswish(c):
    unary(c, dtypes=FLOATS, domain=(-5.0, 5.0))


@op("aten::leaky_relu.out")
def leaky_relu(c):
    unary(c, dtypes=FLOATS)
    c.case("f32_slope_0p2", self=c.rnd([3, 4]), negative_slope=0.2)
    c.case("f32_slope_negative", self=c.rnd([3, 4]), negative_slope=-1.5)


@op("aten::elu.out")
def elu(c):
    unary(c, dtypes=FLOATS)
    c.case("f32_alpha_0p5", self=c.rnd([3, 4]), alpha=0.5)
    c.case("f32_scale_input_scale", self=c.rnd([3, 4]), alpha=1.2, scale=1.05, input_scale=2.0)


@op("aten::logit.out")
def logit(c):
    unary(c, dtypes=FLOATS, domain=(0.0, 1.0))
    c.case("f32_eps_0p1", self=c.rnd([3, 4], F32, -0.5, 1.5), eps=0.1)


@op("aten::glu.out")
def glu(c):
    for dt in FLOATS:
        c.case("%s_last_dim" % short(dt), self=c.rnd([2, 6], dt))
    c.case("f32_dim0", self=c.rnd([4, 3]), dim=0)
    c.case("f32_odd_size_error", self=c.rnd([2, 5]), expect=True)


@op("aten::_softmax.out", "aten::_log_softmax.out", tol="reduce")
def softmax(c):
    for dt in [F32, F64]:
        c.case("%s_last_dim" % short(dt), self=c.rnd([3, 5], dt), dim=-1, half_to_float=False)
    c.case("f32_dim0", self=c.rnd([3, 5]), dim=0, half_to_float=False)
    c.case("f32_middle_dim_3d", self=c.rnd([2, 3, 4]), dim=1, half_to_float=False)
    c.case("f32_large_values", self=c.rnd([2, 4], F32, -100, 100), dim=1, half_to_float=False)
    c.case("f32_with_inf", self=c.special(F32)[1:4].reshape(1, 3), dim=1, half_to_float=False)
    c.case("f32_size1_dim", self=c.rnd([3, 1]), dim=1, half_to_float=False)
    c.case("f32_empty", self=c.rnd([0, 4]), dim=1, half_to_float=False)
    c.case("f32_rank0", self=c.rnd([]), dim=0, half_to_float=False)
    c.case("f32_channels_last_dim1", self=c.cl(c.rnd([1, 3, 2, 2])), dim=1, half_to_float=False)
    c.case("f32_long_row_2x1000", self=c.rnd([2, 1000], F32, -10, 10), dim=1,
           half_to_float=False)
    c.case("f16_last_dim", self=c.rnd([3, 5], F16), dim=1, half_to_float=False, optional=True)
    c.case("bf16_last_dim", self=c.rnd([3, 5], BF16), dim=1, half_to_float=False, optional=True)
    c.case("f16_half_to_float", self=c.rnd([3, 5], F16), dim=1, half_to_float=True,
           optional=True)


@op("aten::view_as_real_copy.out", tol="exact")
def view_as_real_copy(c):
    # complex64 (after the FFT library's _fft_r2c) as float pairs; a transposed input
    x = torch.complex(c.rnd([2, 3]), c.rnd([2, 3]))
    c.case("c64_2x3", self=x)
    c.case("c64_transposed", self=torch.complex(c.rnd([4, 3]), c.rnd([4, 3])).t())
    c.case("c64_scalar", self=torch.complex(c.rnd([]), c.rnd([])))


@op("aten::view_as_complex_copy.out", tol="exact")
def view_as_complex_copy(c):
    c.case("f32_2x3x2", self=c.rnd([2, 3, 2]))
    c.case("f32_last_dim_not_2_error", self=c.rnd([2, 3]), expect=True)

