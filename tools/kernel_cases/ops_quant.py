"""Case specs for the quantized_decomposed ops used by quantized ExecuTorch programs.

torch defines only their functional forms; the out variants here take torch's functional
schema (torch.ops.quantized_decomposed.<op>.<overload>._schema) with `Tensor(a!) out`
appended, and their reference is the functional op itself."""
import torch
import torch.ao.quantization.fx._decomposed  # noqa: F401  (registers quantized_decomposed)

from casegen import _NO_DEFAULT, CUSTOM_OPS, CustomArg, CustomOp, F16, F32, I8, I16, U8
from registry import op


def _out_variant(functional):
    args = []
    for a in functional._schema.arguments:
        default = a.default_value if a.has_default_value() else _NO_DEFAULT
        args.append(CustomArg(a.name, str(a.type), default))
    args.append(CustomArg("out", "Tensor", is_out=True))

    def impl(out, **kw):
        res = functional(**kw)
        if res.dtype != out.dtype:
            raise ValueError("out dtype %s, result %s" % (out.dtype, res.dtype))
        out.set_(res.contiguous())
        return out
    return CustomOp(args, impl)


_QD = torch.ops.quantized_decomposed
for _name, _ov in [("quantize_per_tensor", "default"), ("dequantize_per_tensor", "default"),
                   ("quantize_per_channel", "default"), ("dequantize_per_channel", "default")]:
    CUSTOM_OPS["quantized_decomposed::%s.out" % _name] = _out_variant(
        getattr(getattr(_QD, _name), _ov))

QRANGES = {I8: (-128, 127), U8: (0, 255), I16: (-32768, 32767)}


@op("quantized_decomposed::quantize_per_tensor.out", tol="exact")
def quantize_per_tensor(c):
    for dt, zp in [(I8, 3), (U8, 128), (I16, -5)]:
        lo, hi = QRANGES[dt]
        c.case("f32_to_%s" % str(dt).split(".")[1], input=c.rnd([2, 5]), scale=0.05,
               zero_point=zp, quant_min=lo, quant_max=hi, dtype=dt, out_dtypes=[dt],
               optional=True)
    c.case("f32_to_i8_clamped", input=c.rnd([8], F32, -50, 50), scale=0.1, zero_point=0,
           quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[I8])
    c.case("f32_to_i8_narrow_range", input=c.rnd([8]), scale=0.02, zero_point=0,
           quant_min=-127, quant_max=127, dtype=I8, out_dtypes=[I8])
    c.case("f32_to_i8_ties_half_even", input=torch.tensor([0.25, 0.75, -0.25, -0.75, 1.25]),
           scale=0.5, zero_point=0, quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[I8])
    c.case("f32_to_u8_4d", input=c.cl(c.rnd([1, 3, 2, 2])), scale=0.03, zero_point=100,
           quant_min=0, quant_max=255, dtype=U8, out_dtypes=[U8])
    c.case("f32_empty", input=c.rnd([0, 3]), scale=0.1, zero_point=0, quant_min=-128,
           quant_max=127, dtype=I8, out_dtypes=[I8])


@op("quantized_decomposed::dequantize_per_tensor.out", tol="elementwise")
def dequantize_per_tensor(c):
    for dt, zp in [(I8, 3), (U8, 128), (I16, -5)]:
        lo, hi = QRANGES[dt]
        q = torch.randint(lo, hi + 1, [2, 5], generator=c.gen).to(dt)
        c.case("%s_to_f32" % str(dt).split(".")[1], input=q, scale=0.05, zero_point=zp,
               quant_min=lo, quant_max=hi, dtype=dt, out_dtypes=[F32], optional=True)
    q = torch.randint(-128, 128, [6], generator=c.gen).to(I8)
    c.case("i8_out_dtype_f16", input=q, scale=0.1, zero_point=0, quant_min=-128,
           quant_max=127, dtype=I8, out_dtype=F16, out_dtypes=[F16], optional=True)
    c.case("i8_extremes", input=torch.tensor([-128, 127, 0, -1], dtype=I8), scale=0.25,
           zero_point=-10, quant_min=-128, quant_max=127, dtype=I8, out_dtypes=[F32])


@op("quantized_decomposed::quantize_per_channel.out", tol="exact")
def quantize_per_channel(c):
    c.case("f32_to_i8_axis0", input=c.rnd([3, 4]), scales=torch.tensor([0.02, 0.05, 0.1]),
           zero_points=torch.tensor([0, 2, -3]), axis=0, quant_min=-128, quant_max=127,
           dtype=I8, out_dtypes=[I8])
    c.case("f32_to_u8_axis1_4d", input=c.rnd([2, 3, 2, 2]),
           scales=torch.tensor([0.02, 0.03, 0.04]), zero_points=torch.tensor([128, 120, 100]),
           axis=1, quant_min=0, quant_max=255, dtype=U8, out_dtypes=[U8])
    c.case("f32_to_i8_clamped_axis1", input=c.rnd([2, 2], F32, -40, 40),
           scales=torch.tensor([0.1, 0.2]), zero_points=torch.tensor([0, 0]), axis=1,
           quant_min=-127, quant_max=127, dtype=I8, out_dtypes=[I8])


@op("quantized_decomposed::dequantize_per_channel.out", tol="elementwise")
def dequantize_per_channel(c):
    q = torch.randint(-128, 128, [3, 4], generator=c.gen).to(I8)
    c.case("i8_axis0", input=q, scales=torch.tensor([0.02, 0.05, 0.1]),
           zero_points=torch.tensor([0, 2, -3]), axis=0, quant_min=-128, quant_max=127,
           dtype=I8, out_dtypes=[F32])
    c.case("i8_axis1_no_zero_points", input=q, scales=torch.tensor([0.1, 0.2, 0.3, 0.4]),
           zero_points=None, axis=1, quant_min=-128, quant_max=127, dtype=I8,
           out_dtypes=[F32], optional=True)
    q = torch.randint(0, 256, [2, 3, 2], generator=c.gen).to(U8)
    c.case("u8_axis1_3d", input=q, scales=torch.tensor([0.02, 0.03, 0.04]),
           zero_points=torch.tensor([128, 120, 100]), axis=1, quant_min=0, quant_max=255,
           dtype=U8, out_dtypes=[F32])
