"""Reusable case sets for families of ops (binary and unary elementwise, comparisons), so each
op spec in ops_*.py stays a line or two."""
from casegen import ALL, BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8, short

PROMOTION_PAIRS = [(I32, F32), (U8, I8), (BOOL, I64), (F16, F32), (I64, F64), (BF16, F16),
                   (U8, F32), (BOOL, F32), (I16, I32)]


def binary(c, dtypes=ALL, kw=None, positive_other=False, special=True, promote=True, base=F32,
           names=("self", "other")):
    """Cases for an elementwise op of two tensors (self, other) with broadcasting; the
    structural cases (broadcasting, empty, layouts) use dtype `base`."""
    kw = kw or {}
    rnd_other = c.pos if positive_other else c.rnd
    b = short(base)

    def case(name, x, y, **more):
        more.update(kw)
        more[names[0]] = x
        more[names[1]] = y
        c.case(b + name[3:] if name.startswith("f32_") else name, **more)

    def rnd(shape, dt=None):
        return c.rnd(shape, dt or base)

    def other(shape, dt=None):
        return rnd_other(shape, dt or base)

    for dt in dtypes:
        case("%s_same_2x3" % short(dt), rnd([2, 3], dt), other([2, 3], dt), optional=True)
    case("f32_broadcast_2x3x4_3x1", rnd([2, 3, 4]), other([3, 1]))
    case("f32_broadcast_both_4x1_1x5", rnd([4, 1]), other([1, 5]))
    case("f32_broadcast_rank0_other", rnd([3, 2]), other([]))
    case("f32_rank0_both", rnd([]), other([]))
    case("f32_size1_dims_1x3x1", rnd([1, 3, 1]), other([1, 3, 1]))
    case("f32_empty_0x3", rnd([0, 3]), other([0, 3]))
    case("f32_empty_broadcast_0x3_3", rnd([0, 3]), other([3]))
    case("f32_channels_last_1x3x2x2", c.cl(rnd([1, 3, 2, 2])), c.cl(other([1, 3, 2, 2])))
    case("f32_channels_last_and_contiguous", c.cl(rnd([2, 3, 2, 2])), other([2, 3, 2, 2]),
         optional=True)
    case("f32_large_5x7", rnd([5, 7]), other([5, 7]))
    case("f32_vector_tail_67", rnd([67]), other([67]))
    case("f32_broadcast_inner_row_3x33", rnd([3, 33]), other([33]))
    case("f32_shape_mismatch_error", rnd([2, 3]), other([4]), expect=True)
    if promote:
        for x, y in PROMOTION_PAIRS:
            case("promote_%s_%s" % (short(x), short(y)), rnd([2, 3], x), other([2, 3], y),
                 optional=True)
        case("promote_i64_tensor_f32_rank0", rnd([2, 3], I64), other([], F32), optional=True)
        case("promote_f16_tensor_f64_rank0", rnd([2, 3], F16), other([], F64), optional=True)
    if special:
        for dt in [F32, F64, F16, BF16, I32, I64, U8, I8]:
            s = c.special(dt)
            case("%s_special_values" % short(dt), s, s.flip(0), optional=True)


def binary_scalar(c, dtypes=ALL, kw=None, scalars=(2, -1.5, True), special=True, base=F32):
    """Cases for an op of a tensor and a Scalar (self, other); structural cases use `base`."""
    kw = kw or {}
    b = short(base)
    for dt in dtypes:
        for s in scalars:
            tag = type(s).__name__
            c.case("%s_scalar_%s_%s" % (short(dt), tag, str(s).replace(".", "p").replace("-", "m")),
                   self=c.rnd([2, 3], dt), other=s, optional=True, **kw)
    fs = (lambda v: v) if base.is_floating_point else (lambda v: 3)
    c.case(b + "_empty", self=c.rnd([0, 2], base), other=fs(2.0), **kw)
    c.case(b + "_rank0", self=c.rnd([], base), other=fs(0.5), **kw)
    c.case(b + "_channels_last", self=c.cl(c.rnd([1, 3, 2, 2], base)), other=fs(-0.25), **kw)
    if special:
        for dt in [F32, F64, F16, I32, I64]:
            c.case("%s_special_values" % short(dt), self=c.special(dt), other=3, optional=True, **kw)
            c.case("%s_special_values_nan_scalar" % short(dt), self=c.special(dt),
                   other=float("nan"), optional=True, **kw)


def unary(c, dtypes=ALL, kw=None, domain=None, special=True, base=F32):
    """Cases for an elementwise op of one tensor (self). domain: (lo, hi) for random inputs;
    structural cases use dtype `base`."""
    kw = kw or {}
    lo, hi = domain or (-3.0, 3.0)
    b = short(base)
    for dt in dtypes:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt, lo, hi), optional=True, **kw)
    c.case(b + "_1x4x5", self=c.rnd([1, 4, 5], base, lo, hi), **kw)
    c.case(b + "_rank0", self=c.rnd([], base, lo, hi), **kw)
    c.case(b + "_empty", self=c.rnd([2, 0, 3], base, lo, hi), **kw)
    c.case(b + "_channels_last_2x3x2x2", self=c.cl(c.rnd([2, 3, 2, 2], base, lo, hi)), **kw)
    c.case(b + "_vector_tail_67", self=c.rnd([67], base, lo, hi), **kw)
    c.case("f16_vector_tail_37", self=c.rnd([37], F16, lo, hi), optional=True, **kw)
    if special:
        for dt in [F32, F64, F16, BF16, I32, I64, U8, BOOL]:
            c.case("%s_special_values" % short(dt), self=c.special(dt), optional=True, **kw)


def dtypes_except(*excluded):
    return [d for d in ALL if d not in excluded]


__all__ = ["binary", "binary_scalar", "unary", "dtypes_except", "PROMOTION_PAIRS", "ALL", "FLOATS",
           "INTS", "F32", "F64", "F16", "BF16", "I8", "I16", "I32", "I64", "U8", "BOOL"]
