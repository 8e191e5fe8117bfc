"""Case specs for the quantized_decomposed ops used by quantized ExecuTorch programs.

torch defines only their functional forms; the out variants here take torch's functional
schema (torch.ops.quantized_decomposed.<op>.<overload>._schema) with `Tensor(a!) out`
appended (two outs, scale_out and zero_point_out, for choose_qparams), named as upstream
ExecuTorch names them (`.out`, `.Tensor_out`), and their reference is the functional op itself.
Storage dtypes: uint8, int8, int16 and int32 (torch's quant_min/quant_max bounds check applies).
"""
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers quantized_decomposed)

from casegen import (_NO_DEFAULT, CUSTOM_OPS, CustomArg, CustomOp, BF16, F16, F32, F64, I8,
                     I16, I32, I64, U8)
from registry import op


def _out_variant(functional, outs=("out",)):
    args = []
    for a in functional._schema.arguments:
        default = a.default_value if a.has_default_value() else _NO_DEFAULT
        args.append(CustomArg(a.name, str(a.type), default))
    for name in outs:
        args.append(CustomArg(name, "Tensor", is_out=True))

    def impl(**kw):
        out_tensors = [kw.pop(name) for name in outs]
        res = functional(**kw)
        res = list(res) if isinstance(res, (tuple, list)) else [res]
        for o, r in zip(out_tensors, res):
            if r.dtype != o.dtype:
                raise ValueError("out dtype %s, result %s" % (o.dtype, r.dtype))
            o.set_(r.contiguous())
        return out_tensors
    return CustomOp(args, impl)


_QD = torch.ops.quantized_decomposed
for _name, _ov, _key in [("quantize_per_tensor", "default", "out"),
                         ("quantize_per_tensor", "tensor", "Tensor_out"),
                         ("dequantize_per_tensor", "default", "out"),
                         ("dequantize_per_tensor", "tensor", "Tensor_out"),
                         ("quantize_per_channel", "default", "out"),
                         ("dequantize_per_channel", "default", "out")]:
    CUSTOM_OPS["quantized_decomposed::%s.%s" % (_name, _key)] = _out_variant(
        getattr(getattr(_QD, _name), _ov))
CUSTOM_OPS["quantized_decomposed::choose_qparams.Tensor_out"] = _out_variant(
    _QD.choose_qparams.tensor, outs=("scale_out", "zero_point_out"))

QRANGES = {I8: (-128, 127), U8: (0, 255), I16: (-32768, 32767), I32: (-(2 ** 31), 2 ** 31 - 1)}
STORAGE = [(I8, 3), (U8, 128), (I16, -5), (I32, 70000)]
# Values exactly half-way between two integers after scaling by 1/0.5 (round half to even).
TIES = [0.25, 0.75, -0.25, -0.75, 1.25, -1.25, 0.0, -0.0, 63.25, -64.25]


def _name(dt):
    return str(dt).split(".")[1]


def _quantize_inputs(c):
    """(case suffix, input, scale, zero point, qmin, qmax, dtype) for the per-tensor quantizers."""
    yield "f32_ties_half_even", torch.tensor(TIES), 0.5, 0, -128, 127, I8
    yield "f32_clamped_and_inf", torch.tensor([-1e9, 1e9, float("inf"), -float("inf"), 12.7,
                                               -12.8, 12.75, -12.85]), 0.1, 0, -128, 127, I8
    yield "f32_narrow_range", c.rnd([8]), 0.02, 0, -127, 127, I8
    yield "f32_custom_range", c.rnd([3, 5], F32, -2, 2), 0.01, 10, -20, 40, I8
    yield "f32_4d_channels_last", c.cl(c.rnd([1, 3, 2, 2])), 0.03, 100, 0, 255, U8
    yield "f32_empty", c.rnd([0, 3]), 0.1, 0, -128, 127, I8
    yield "f32_rank0", torch.tensor(0.37), 0.01, -7, -128, 127, I8
    yield "f32_odd_scale", c.rnd([40], F32, -1, 1), 0.0078431372549019607, 0, -128, 127, I8
    yield "f32_int32_wide", c.rnd([6], F32, -100, 100), 1e-4, 70000, -(2 ** 20), 2 ** 20, I32
    for dt, zp in STORAGE:
        lo, hi = QRANGES[dt]
        yield "f32_to_%s" % _name(dt), c.rnd([2, 5]), 0.05, zp, lo, hi, dt
    for dt in (F16, BF16):
        yield "%s_input" % _name(dt), c.rnd([7], dt), 0.05, 2, -128, 127, I8
    yield "f64_input_rejected", c.rnd([3], F64), 0.05, 0, -128, 127, I8
    yield "qmin_below_dtype_rejected", c.rnd([3]), 0.05, 0, -200, 127, I8
    yield "qmax_above_dtype_rejected", c.rnd([3]), 0.05, 0, 0, 300, U8


@op("quantized_decomposed::quantize_per_tensor.out", tol="exact")
def quantize_per_tensor(c):
    for suffix, x, scale, zp, lo, hi, dt in _quantize_inputs(c):
        c.case(suffix, input=x, scale=scale, zero_point=zp, quant_min=lo, quant_max=hi, dtype=dt,
               out_dtypes=[dt])


@op("quantized_decomposed::quantize_per_tensor.Tensor_out", tol="exact")
def quantize_per_tensor_tensor(c):
    # choose_qparams gives float64 scales and int64 zero points of shape [1].
    for suffix, x, scale, zp, lo, hi, dt in _quantize_inputs(c):
        c.case(suffix, input=x, scale=torch.tensor([scale], dtype=F64),
               zero_point=torch.tensor([zp], dtype=I64), quant_min=lo, quant_max=hi, dtype=dt,
               out_dtypes=[dt])
    c.case("f32_scale_rank0_i32_zp", input=c.rnd([2, 3]), scale=torch.tensor(0.03),
           zero_point=torch.tensor(-4, dtype=I32), quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[I8])
    c.case("two_scales_rejected", input=c.rnd([2, 3]), scale=torch.tensor([0.03, 0.04]),
           zero_point=torch.tensor([0, 0]), quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[I8])


def _dequantize_inputs(c):
    for dt, zp in STORAGE:
        lo, hi = QRANGES[dt]
        q = torch.randint(max(lo, -40000), min(hi, 40000) + 1, [2, 5], generator=c.gen).to(dt)
        yield "%s_to_f32" % _name(dt), q, 0.05, zp, lo, hi, dt, None
    q = torch.randint(-128, 128, [6], generator=c.gen).to(I8)
    for dt in (F16, BF16, F64):
        yield "i8_out_dtype_%s" % _name(dt), q, 0.1, 3, -128, 127, I8, dt
    yield "i8_extremes", torch.tensor([-128, 127, 0, -1], dtype=I8), 0.25, -10, -128, 127, I8, None
    yield "i8_odd_scale", q, 0.0078431372549019607, 5, -128, 127, I8, None
    yield "u8_channels_last", c.cl(torch.randint(0, 256, [1, 3, 2, 2], generator=c.gen).to(U8)), \
        0.02, 128, 0, 255, U8, None
    yield "i8_empty", torch.zeros([0, 4], dtype=I8), 0.5, 0, -128, 127, I8, None
    yield "dtype_mismatch_rejected", q, 0.1, 0, -128, 127, U8, None


@op("quantized_decomposed::dequantize_per_tensor.out", tol="exact")
def dequantize_per_tensor(c):
    for suffix, q, scale, zp, lo, hi, dt, out_dt in _dequantize_inputs(c):
        c.case(suffix, input=q, scale=scale, zero_point=zp, quant_min=lo, quant_max=hi, dtype=dt,
               out_dtype=out_dt, out_dtypes=[out_dt or F32])


@op("quantized_decomposed::dequantize_per_tensor.Tensor_out", tol="exact")
def dequantize_per_tensor_tensor(c):
    for suffix, q, scale, zp, lo, hi, dt, out_dt in _dequantize_inputs(c):
        c.case(suffix, input=q, scale=torch.tensor([scale], dtype=F64),
               zero_point=torch.tensor([zp], dtype=I64), quant_min=lo, quant_max=hi, dtype=dt,
               out_dtype=out_dt, out_dtypes=[out_dt or F32])
    q = torch.randint(-128, 128, [5], generator=c.gen).to(I8)
    c.case("f32_scale_i32_zp", input=q, scale=torch.tensor([0.125]),
           zero_point=torch.tensor([7], dtype=I32), quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[F32])


def _channel_qparams(c, n, dt, scale_dtype=F32, zp_dtype=I64):
    lo, hi = QRANGES[dt]
    scales = (torch.rand([n], generator=c.gen, dtype=F64) * 0.09 + 0.01).to(scale_dtype)
    mid = (lo + hi) // 2 if dt == U8 else 0
    zps = torch.randint(-3, 4, [n], generator=c.gen) + mid
    return scales, zps.to(zp_dtype), lo, hi


@op("quantized_decomposed::quantize_per_channel.out", tol="exact")
def quantize_per_channel(c):
    specs = [
        ("f32_to_i8_axis0", c.rnd([3, 4]), 0, I8, F32, I64),
        ("f32_to_u8_axis1_4d", c.rnd([2, 3, 2, 2]), 1, U8, F32, I64),
        ("f32_to_i8_axis1_channels_last", c.cl(c.rnd([2, 4, 3, 3])), 1, I8, F32, I64),
        ("f32_to_i8_axis0_conv_weight", c.rnd([8, 3, 3, 3], F32, -0.5, 0.5), 0, I8, F32, I64),
        ("f32_to_i16_last_axis", c.rnd([2, 3, 5]), 2, I16, F32, I32),
        ("f32_to_i8_negative_axis", c.rnd([2, 3, 5]), -1, I8, F32, I64),
        ("f32_to_i8_f64_scales", c.rnd([4, 6]), 0, I8, F64, I64),
        ("f32_to_i32_axis0", c.rnd([3, 2], F32, -500, 500), 0, I32, F32, I32),
        ("f16_to_i8_axis0", c.rnd([3, 4], F16), 0, I8, F32, I64),
    ]
    for name, x, axis, dt, sdt, zdt in specs:
        scales, zps, lo, hi = _channel_qparams(c, x.shape[axis], dt, sdt, zdt)
        c.case(name, input=x, scales=scales, zero_points=zps, axis=axis, quant_min=lo,
               quant_max=hi, dtype=dt, out_dtypes=[dt])
    c.case("f32_ties_half_even_axis1", input=torch.tensor([TIES[:5], TIES[5:]]).t(),
           scales=torch.tensor([0.5, 0.25]), zero_points=torch.tensor([0, 1]), axis=1,
           quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[I8])
    c.case("f32_to_i8_clamped_narrow", input=c.rnd([2, 2], F32, -40, 40),
           scales=torch.tensor([0.1, 0.2]), zero_points=torch.tensor([0, 0]), axis=1,
           quant_min=-127, quant_max=127, dtype=I8, out_dtypes=[I8])
    c.case("one_scale_broadcasts", input=c.rnd([3, 4]), scales=torch.tensor([0.05]),
           zero_points=torch.tensor([2]), axis=0, quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[I8])
    c.case("scales_length_mismatch_rejected", input=c.rnd([3, 4]),
           scales=torch.tensor([0.1, 0.2]), zero_points=torch.tensor([0, 0]), axis=0,
           quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[I8], expect=True)
    c.case("zero_points_length_mismatch_rejected", input=c.rnd([3, 4]),
           scales=torch.tensor([0.1, 0.2, 0.3]), zero_points=torch.tensor([0, 0]), axis=0,
           quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[I8], expect=True)
    c.case("axis_out_of_range_rejected", input=c.rnd([3, 4]), scales=torch.tensor([0.1] * 4),
           zero_points=torch.tensor([0] * 4), axis=2, quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[I8], expect=True)


@op("quantized_decomposed::dequantize_per_channel.out", tol="exact")
def dequantize_per_channel(c):
    specs = [
        ("i8_axis0", [3, 4], 0, I8, F32, I64, None, False),
        ("u8_axis1_3d", [2, 3, 2], 1, U8, F32, I64, None, False),
        ("i8_conv_weight_channels_last", [6, 2, 3, 3], 0, I8, F32, I64, None, True),
        ("i8_axis1_channels_last", [2, 4, 3, 3], 1, I8, F32, I64, None, True),
        ("i16_i32_zero_points", [4, 3], 0, I16, F32, I32, None, False),
        ("i32_axis1", [2, 3], 1, I32, F32, I64, None, False),
        ("i8_f64_scales", [3, 5], 0, I8, F64, I64, None, False),
        ("i8_negative_axis", [2, 3, 4], -1, I8, F32, I64, None, False),
        ("i8_out_dtype_f16", [3, 4], 0, I8, F32, I64, F16, False),
        ("i8_out_dtype_f64", [3, 4], 1, I8, F32, I64, F64, False),
    ]
    for name, shape, axis, dt, sdt, zdt, out_dt, channels_last in specs:
        lo, hi = QRANGES[dt]
        q = torch.randint(max(lo, -1000), min(hi, 1000) + 1, shape, generator=c.gen).to(dt)
        if channels_last:
            q = c.cl(q)
        scales, zps, lo, hi = _channel_qparams(c, shape[axis], dt, sdt, zdt)
        c.case(name, input=q, scales=scales, zero_points=zps, axis=axis, quant_min=lo,
               quant_max=hi, dtype=dt, out_dtype=out_dt, out_dtypes=[out_dt or F32])
    q = torch.randint(-128, 128, [3, 4], generator=c.gen).to(I8)
    c.case("i8_axis1_no_zero_points", input=q, scales=torch.tensor([0.1, 0.2, 0.3, 0.4]),
           zero_points=None, axis=1, quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[F32])
    c.case("scales_length_mismatch_rejected", input=q, scales=torch.tensor([0.1, 0.2]),
           zero_points=torch.tensor([0, 0]), axis=0, quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[F32], expect=True)
    c.case("dtype_mismatch_rejected", input=q, scales=torch.tensor([0.1, 0.2, 0.3]),
           zero_points=torch.tensor([0, 0, 0]), axis=0, quant_min=0, quant_max=255, dtype=U8,
           out_dtypes=[F32], expect=True)


@op("quantized_decomposed::choose_qparams.Tensor_out", tol="exact")
def choose_qparams(c):
    inputs = [
        ("mixed_signs", c.rnd([4, 16], F32, -3, 5)),
        ("all_positive", c.rnd([10], F32, 0.5, 2.0)),
        ("all_negative", c.rnd([10], F32, -2.0, -0.5)),
        ("all_zero", torch.zeros([3, 3])),
        ("tiny_range_uses_eps", c.rnd([5], F32, -1e-6, 1e-6)),
        ("rank0", torch.tensor(-0.7)),
        ("channels_last", c.cl(c.rnd([1, 3, 2, 2], F32, -1, 2))),
    ]
    for name, x in inputs:
        c.case("i8_" + name, input=x, quant_min=-128, quant_max=127, eps=2 ** -12, dtype=I8,
               out_dtypes=[F64, I64])
    x = c.rnd([6, 7], F32, -4, 1)
    c.case("u8_full_range", input=x, quant_min=0, quant_max=255, eps=torch.finfo(F32).eps,
           dtype=U8, out_dtypes=[F64, I64])
    c.case("i8_narrow_range", input=x, quant_min=-127, quant_max=127, eps=1e-5, dtype=I8,
           out_dtypes=[F64, I64])
    c.case("i16_range", input=x, quant_min=-32768, quant_max=32767, eps=1e-7, dtype=I16,
           out_dtypes=[F64, I64])
    c.case("empty_rejected", input=torch.zeros([0, 2]), quant_min=-128, quant_max=127,
           eps=2 ** -12, dtype=I8, out_dtypes=[F64, I64], expect=True)
    c.case("qmin_above_zero_rejected", input=x, quant_min=1, quant_max=127, eps=2 ** -12,
           dtype=I8, out_dtypes=[F64, I64], expect=True)
