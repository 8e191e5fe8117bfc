"""Case specs for elementwise arithmetic, comparison, logical and bitwise ops."""
from families import (ALL, BF16, BOOL, F16, F32, F64, FLOATS, I32, I64, INTS, U8, binary,
                      binary_scalar, dtypes_except, unary)
from registry import op
from casegen import short

NUMERIC = dtypes_except(BOOL)


@op("aten::add.out")
def add_out(c):
    binary(c)
    c.case("f32_alpha_2p5", self=c.rnd([2, 3]), other=c.rnd([2, 3]), alpha=2.5)
    c.case("i32_alpha_3", self=c.rnd([2, 3], I32), other=c.rnd([2, 3], I32), alpha=3)
    c.case("i64_alpha_float_error", self=c.rnd([2, 3], I64), other=c.rnd([2, 3], I64),
           alpha=1.5, expect=True)
    c.case("bool_alpha_true", self=c.rnd([2, 3], BOOL), other=c.rnd([2, 3], BOOL), alpha=True)
    c.case("f32_into_i64_out_error", self=c.rnd([2, 3]), other=c.rnd([2, 3]), out_dtypes=[I64],
           expect=True)
    c.case("i32_into_f32_out", self=c.rnd([2, 3], I32), other=c.rnd([2, 3], I32),
           out_dtypes=[F32])


@op("aten::sub.out")
def sub_out(c):
    binary(c, dtypes=NUMERIC)
    c.case("f32_alpha_m0p5", self=c.rnd([2, 3]), other=c.rnd([2, 3]), alpha=-0.5)
    c.case("i64_alpha_2", self=c.rnd([2, 3], I64), other=c.rnd([2, 3], I64), alpha=2)
    c.case("bool_error", self=c.rnd([2, 3], BOOL), other=c.rnd([2, 3], BOOL), expect=True)


@op("aten::mul.out")
def mul_out(c):
    binary(c)


@op("aten::div.out")
def div_out(c):
    binary(c)
    c.case("f32_divide_by_zero", self=c.special(F32), other=c.rnd([14]) * 0)
    c.case("i32_divide_by_zero_gives_float", self=c.special(I32),
           other=c.rnd([10], I32) * 0)


@op("aten::div.out_mode")
def div_out_mode(c):
    for mode in ["trunc", "floor"]:
        binary(c, dtypes=NUMERIC, kw={"rounding_mode": mode}, special=False, promote=False)
        # binary() names its cases the same for both modes; rename the last batch.
        for case in c.cases:
            if not case["name"].startswith(("trunc_", "floor_")):
                case["name"] = mode + "_" + case["name"]
        c.names = {case["name"] for case in c.cases}
        for dt in [F32, F64, F16, I32, I64]:
            s = c.special(dt)
            c.case("%s_%s_special_values" % (mode, short(dt)), self=s,
                   other=s.flip(0), rounding_mode=mode, optional=True)
        c.case("%s_negative_operands" % mode, self=c.rnd([3, 4]) * 3, other=-c.pos([3, 4]),
               rounding_mode=mode)
        c.case("%s_i64_negative" % mode, self=c.rnd([3, 4], I64), other=-c.pos([3, 4], I64),
               rounding_mode=mode)
        c.case("%s_i32_by_zero_error" % mode, self=c.rnd([3], I32),
               other=c.rnd([3], I32) * 0, rounding_mode=mode, expect=True)
        c.case("%s_promote_i32_f32" % mode, self=c.rnd([2, 3], I32), other=c.pos([2, 3]),
               rounding_mode=mode)
    c.case("none_mode", self=c.rnd([2, 3]), other=c.pos([2, 3]), rounding_mode=None)


@op("aten::add.Scalar_out")
def add_scalar_out(c):
    binary_scalar(c)
    c.case("f32_alpha_2", self=c.rnd([2, 3]), other=1.5, alpha=2)
    c.case("i32_float_scalar_into_i32_error", self=c.rnd([2, 3], I32), other=1.5, out_dtypes=[I32],
           expect=True)


@op("aten::sub.Scalar_out")
def sub_scalar_out(c):
    binary_scalar(c, dtypes=NUMERIC, scalars=(2, -1.5))
    c.case("f32_alpha_3", self=c.rnd([2, 3]), other=0.5, alpha=3)


@op("aten::mul.Scalar_out")
def mul_scalar_out(c):
    binary_scalar(c)


@op("aten::div.Scalar_out")
def div_scalar_out(c):
    binary_scalar(c, dtypes=NUMERIC, scalars=(2, -1.5, 0))


@op("aten::div.Scalar_mode_out")
def div_scalar_mode_out(c):
    for mode in ["trunc", "floor"]:
        for dt in [F32, F64, I32, I64, U8]:
            c.case("%s_%s" % (mode, short(dt)), self=c.rnd([2, 3], dt) * 3,
                   other=-2, rounding_mode=mode, optional=True)
        c.case("%s_float_scalar" % mode, self=c.rnd([2, 3]), other=0.75, rounding_mode=mode)


@op("aten::rsub.Scalar_out")
def rsub_scalar_out(c):
    binary_scalar(c, dtypes=NUMERIC, scalars=(2, -1.5))
    c.case("f32_alpha_2", self=c.rnd([2, 3]), other=1.0, alpha=2)


@op("aten::maximum.out", "aten::minimum.out", "aten::atan2.out")
def maximum_out(c):
    binary(c, dtypes=NUMERIC if c.op_key.endswith("atan2.out") else ALL)


@op("aten::fmod.Tensor_out", "aten::remainder.Tensor_out", "aten::floor_divide.out")
def fmod_out(c):
    binary(c, dtypes=NUMERIC, positive_other=True)
    c.case("f32_negative_operands", self=c.rnd([3, 4]) * 3, other=-c.pos([3, 4]))
    c.case("i64_negative_operands", self=c.rnd([3, 4], I64), other=-c.pos([3, 4], I64))
    c.case("i32_by_zero", self=c.rnd([3], I32), other=c.rnd([3], I32) * 0)


@op("aten::fmod.Scalar_out", "aten::remainder.Scalar_out")
def fmod_scalar_out(c):
    binary_scalar(c, dtypes=NUMERIC, scalars=(3, -1.5))


@op("aten::pow.Tensor_Tensor_out")
def pow_tt(c):
    binary(c, dtypes=NUMERIC, positive_other=True, names=("self", "exponent"))
    c.case("f32_negative_base_fractional_exp", self=-c.pos([2, 3]), exponent=c.rnd([2, 3]))
    c.case("i64_negative_exponent", self=c.rnd([3], I64), exponent=-c.pos([3], I64))


@op("aten::pow.Tensor_Scalar_out")
def pow_ts(c):
    for dt in NUMERIC:
        for e in (2, 3, 0.5, -1.0, 0):
            c.case("%s_exp_%s" % (short(dt), str(e).replace(".", "p").replace("-", "m")),
                   self=c.pos([2, 3], dt), exponent=e, optional=True)
    c.case("f32_negative_base_exp_2", self=c.rnd([2, 3]), exponent=2)
    c.case("f32_negative_base_exp_0p5_nan", self=-c.pos([4]), exponent=0.5)
    c.case("f32_special_values_exp_2", self=c.special(F32), exponent=2)
    c.case("f32_special_values_exp_m1", self=c.special(F32), exponent=-1)
    c.case("i32_float_exp_promotes", self=c.pos([3], I32), exponent=1.5, optional=True)
    c.case("f32_empty", self=c.rnd([0, 3]), exponent=2.0)
    c.case("f32_channels_last", self=c.cl(c.pos([1, 2, 2, 2])), exponent=3)


@op("aten::pow.Scalar_out")
def pow_scalar(c):
    for dt in NUMERIC:
        c.case("base_2_%s" % short(dt), self=2, exponent=c.pos([2, 3], dt) - 1,
               optional=True)
    c.case("base_0p5_f32", self=0.5, exponent=c.rnd([2, 3]))
    c.case("base_m2_f32", self=-2.0, exponent=c.rnd([2, 3]))
    c.case("base_2p5_special", self=2.5, exponent=c.special(F32))
    c.case("base_float_int_tensor", self=1.5, exponent=c.pos([3], I64), optional=True)


CMP = ["eq", "ne", "lt", "le", "gt", "ge"]


@op(*["aten::%s.Tensor_out" % n for n in CMP])
def compare_tensor(c):
    binary(c)
    t = c.rnd([3, 4]).round()
    c.case("f32_with_equal_elements", self=t, other=t.flip(1))
    c.case("f32_into_f32_out", self=c.rnd([2, 3]), other=c.rnd([2, 3]), out_dtypes=[F32])


@op(*["aten::%s.Scalar_out" % n for n in CMP])
def compare_scalar(c):
    binary_scalar(c, scalars=(1, -0.5, True))
    c.case("f32_equal_to_scalar", self=c.rnd([3, 4]).round(), other=1.0)
    c.case("i32_into_i32_out", self=c.rnd([2, 3], I32), other=2, out_dtypes=[I32])


@op("aten::logical_and.out", "aten::logical_or.out", "aten::logical_xor.out")
def logical_binary(c):
    binary(c, promote=False)
    c.case("mixed_f32_i64", self=c.rnd([2, 3]).round(), other=c.rnd([2, 3], I64))
    c.case("into_f32_out", self=c.rnd([2, 3], BOOL), other=c.rnd([2, 3], BOOL), out_dtypes=[F32])


@op("aten::logical_not.out")
def logical_not(c):
    unary(c)
    c.case("f32_into_f32_out", self=c.rnd([2, 3]).round(), out_dtypes=[F32])


BITWISE = ["bitwise_and", "bitwise_or", "bitwise_xor"]


@op(*["aten::%s.Tensor_out" % n for n in BITWISE])
def bitwise_tensor(c):
    binary(c, dtypes=INTS + [BOOL], promote=False, base=I32)
    c.case("float_error", self=c.rnd([2, 3]), other=c.rnd([2, 3]), expect=True)
    c.case("promote_u8_i32", self=c.rnd([2, 3], U8), other=c.rnd([2, 3], I32))


@op(*["aten::%s.Scalar_out" % n for n in BITWISE])
def bitwise_scalar(c):
    binary_scalar(c, dtypes=INTS + [BOOL], scalars=(6, True), base=I32)


@op("aten::bitwise_not.out")
def bitwise_not(c):
    unary(c, dtypes=INTS + [BOOL], special=False, base=I32)
    for dt in INTS + [BOOL]:
        c.case("%s_special_values" % short(dt), self=c.special(dt))


@op("aten::where.self_out")
def where_self(c):
    for dt in ALL:
        c.case("%s_2x3" % short(dt), condition=c.rnd([2, 3], BOOL),
               self=c.rnd([2, 3], dt), other=c.rnd([2, 3], dt))
    c.case("broadcast_cond_3x1", condition=c.rnd([3, 1], BOOL), self=c.rnd([3, 4]),
           other=c.rnd([4]))
    c.case("broadcast_rank0_other", condition=c.rnd([2, 3], BOOL), self=c.rnd([2, 3]),
           other=c.rnd([]))
    c.case("promote_i64_f32", condition=c.rnd([2, 3], BOOL), self=c.rnd([2, 3], I64),
           other=c.rnd([2, 3]))
    c.case("empty", condition=c.rnd([0, 3], BOOL), self=c.rnd([0, 3]), other=c.rnd([0, 3]))
    c.case("channels_last", condition=c.cl(c.rnd([1, 3, 2, 2], BOOL)),
           self=c.cl(c.rnd([1, 3, 2, 2])), other=c.cl(c.rnd([1, 3, 2, 2])))
    c.case("special_values", condition=c.rnd([14], BOOL), self=c.special(F32),
           other=c.special(F32).flip(0))
    c.case("u8_condition", condition=c.rnd([2, 3], U8), self=c.rnd([2, 3]), other=c.rnd([2, 3]),
           optional=True)


@op("aten::clamp.out")
def clamp_out(c):
    for dt in dtypes_except(BOOL):
        c.case("%s_min_max" % short(dt), self=c.rnd([3, 4], dt), min=-1, max=2,
               optional=True)
    c.case("f32_min_only", self=c.rnd([3, 4]), min=0.5)
    c.case("f32_max_only", self=c.rnd([3, 4]), max=-0.5)
    c.case("f32_min_gt_max", self=c.rnd([3, 4]), min=1.0, max=-1.0)
    c.case("f32_special_values", self=c.special(F32), min=-2.0, max=50.0)
    c.case("f32_nan_bound", self=c.rnd([4]), min=float("nan"), max=1.0)
    c.case("f32_both_none_error", self=c.rnd([4]), expect=True)
    c.case("i32_float_bounds", self=c.rnd([3, 4], I32), min=-1.5, max=2.5, optional=True)
    c.case("u8_negative_min", self=c.rnd([3, 4], U8), min=-5, max=10, optional=True)
    c.case("f32_empty", self=c.rnd([0]), min=0.0, max=1.0)
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 3, 2, 2])), min=-0.5, max=0.5)


@op("aten::clamp.Tensor_out")
def clamp_tensor_out(c):
    c.case("f32_min_max", self=c.rnd([3, 4]), min=c.rnd([3, 4]) - 1, max=c.rnd([4]) + 1)
    c.case("f32_min_only", self=c.rnd([3, 4]), min=c.rnd([1, 4]))
    c.case("i32_broadcast", self=c.rnd([3, 4], I32), min=c.rnd([], I32), max=c.rnd([3, 1], I32))
    c.case("promote_i32_f32_bounds", self=c.rnd([3, 4], I32), min=c.rnd([4]), max=c.rnd([4]) + 3,
           optional=True)
