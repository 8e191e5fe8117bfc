"""Case specs for reductions (mean, sum, amax, argmax, ...)."""
from families import BF16, BOOL, F16, F32, F64, FLOATS, I32, I64, INTS, U8
from registry import op
from casegen import short

ALL_DT = FLOATS + INTS + [BOOL]


def dim_reduction(c, dtypes, dim_name="dim", list_dim=True, extra=None):
    """Cases for a reduction taking (self, dim, keepdim)."""
    extra = extra or {}

    def d(v):
        return v if list_dim else (v[0] if isinstance(v, list) and len(v) == 1 else v)

    for dt in dtypes:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), **{dim_name: d([1])},
               optional=True, **extra)
    c.case("f32_dim0_keepdim", self=c.rnd([3, 4]), keepdim=True, **{dim_name: d([0])}, **extra)
    c.case("f32_negative_dim", self=c.rnd([2, 3, 4]), **{dim_name: d([-1])}, **extra)
    c.case("f32_3d_middle_dim", self=c.rnd([2, 3, 4]), **{dim_name: d([1])}, **extra)
    c.case("f32_special_values", self=c.special(F32).reshape(2, 7), **{dim_name: d([1])}, **extra)
    c.case("f32_channels_last", self=c.cl(c.rnd([2, 3, 2, 2])), **{dim_name: d([1])},
           optional=True, **extra)
    c.case("f32_size1_dim", self=c.rnd([3, 1]), **{dim_name: d([1])}, **extra)
    c.case("f32_dim_out_of_range_error", self=c.rnd([3, 4]), **{dim_name: d([2])}, expect=True,
           **extra)
    if list_dim:
        c.case("f32_two_dims_keepdim", self=c.rnd([2, 3, 4]), keepdim=True,
               **{dim_name: [0, 2]}, **extra)
        c.case("f32_all_dims_empty_list", self=c.rnd([2, 3]), **{dim_name: []}, **extra)
        c.case("f32_empty_reduced_dim", self=c.rnd([2, 0]), **{dim_name: [1]}, optional=True,
               **extra)
        c.case("f32_empty_kept_dim", self=c.rnd([0, 3]), **{dim_name: [1]}, optional=True, **extra)
        c.case("f32_rank0", self=c.rnd([]), **{dim_name: []}, optional=True, **extra)


@op("aten::mean.out", tol="reduce")
def mean_out(c):
    dim_reduction(c, FLOATS)
    c.case("f32_dim_none", self=c.rnd([3, 4]), dim=None)
    c.case("f16_dtype_f32", self=c.rnd([3, 4], F16), dim=[1], dtype=F32)
    c.case("i64_error", self=c.rnd([3, 4], I64), dim=[1], expect=True)
    c.case("f32_7x9_dim1", self=c.rnd([7, 9]), dim=[1])
    c.case("f32_long_row_4x1000", self=c.rnd([4, 1000]), dim=[1])


@op("aten::mean.dtype_out", tol="reduce")
def mean_dtype(c):
    c.case("f32_to_f64", self=c.rnd([3, 4]), dtype=F64)
    c.case("f16_to_f32", self=c.rnd([3, 4], F16), dtype=F32)
    c.case("f32_dtype_none", self=c.rnd([2, 5]))


@op("aten::sum.IntList_out", tol="reduce")
def sum_out(c):
    dim_reduction(c, ALL_DT)
    c.case("f32_dim_none", self=c.rnd([3, 4]), dim=None)
    c.case("i32_dtype_i64", self=c.rnd([3, 4], I32), dim=[0], dtype=I64)
    c.case("u8_overflow_to_i64_default", self=c.rnd([3, 4], U8) * 12, dim=[1])
    c.case("f32_dtype_f64", self=c.rnd([3, 4]), dim=[1], dtype=F64)
    c.case("f32_long_row_4x1000", self=c.rnd([4, 1000]), dim=[1])
    c.case("f16_long_row_2x500", self=c.rnd([2, 500], F16), dim=[1])


@op("aten::amax.out", "aten::amin.out", tol="exact")
def amax(c):
    dim_reduction(c, ALL_DT)


@op("aten::argmax.out", "aten::argmin.out", tol="exact")
def argmax(c):
    dim_reduction(c, [F32, F64, F16, BF16, I32, I64, U8], list_dim=False)
    c.case("f32_dim_none_flat", self=c.rnd([3, 4]), dim=None)
    c.case("f32_ties_first_index", self=c.rnd([3, 5]).round(), dim=1)
    c.case("f32_empty_error", self=c.rnd([0, 3]), dim=0, expect=True)
    c.case("f32_rank0", self=c.rnd([]), dim=None)


@op("aten::max.dim_max", "aten::min.dim_min", tol="exact")
def max_dim(c):
    for dt in [F32, F64, F16, I32, I64, U8, BOOL]:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), dim=1, optional=True)
    c.case("f32_dim0_keepdim", self=c.rnd([3, 4]), dim=0, keepdim=True)
    c.case("f32_special_values", self=c.special(F32).reshape(2, 7), dim=1)
    c.case("f32_ties", self=c.rnd([3, 5]).round(), dim=1)
    c.case("f32_negative_dim_3d", self=c.rnd([2, 3, 4]), dim=-1)


@op("aten::max.unary_out", "aten::min.unary_out", tol="exact")
def max_unary(c):
    for dt in [F32, F64, F16, I32, I64, U8, BOOL]:
        c.case("%s_3x4" % short(dt), self=c.rnd([3, 4], dt), optional=True)
    c.case("f32_special_values", self=c.special(F32))
    c.case("f32_rank0", self=c.rnd([]))


@op("aten::any.out", "aten::any.dims_out", "aten::any.all_out", tol="exact")
def any_out(c):
    key = c.op_key
    for dt in [BOOL, F32, I32, U8]:
        x = c.rnd([3, 4], dt) * (c.rnd([3, 4], dt) if dt != BOOL else True)
        if key.endswith("all_out"):
            c.case("%s" % short(dt), self=x, optional=True)
        elif key.endswith("dims_out"):
            c.case("%s_dims01" % short(dt), self=x, dim=[0, 1], optional=True)
            c.case("%s_dim1_keepdim" % short(dt), self=x, dim=[1], keepdim=True, optional=True)
        else:
            c.case("%s_dim1" % short(dt), self=x, dim=1, optional=True)
    zeros = c.rnd([2, 3], BOOL) & False
    if key.endswith("all_out"):
        c.case("all_false", self=zeros)
        c.case("empty", self=c.rnd([0], BOOL))
    elif key.endswith("dims_out"):
        c.case("all_false_dim0", self=zeros, dim=[0])
        c.case("dims_none", self=zeros, dim=None, optional=True)
    else:
        c.case("all_false_dim0", self=zeros, dim=0)


@op("aten::prod.int_out", tol="reduce")
def prod_int(c):
    for dt in [F32, F64, I32, I64, U8, BOOL]:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt, -1.5, 1.5), dim=1, optional=True)
    c.case("f32_keepdim_dim0", self=c.rnd([3, 4]), dim=0, keepdim=True)
    c.case("i32_dtype_i64", self=c.rnd([3, 4], I32), dim=1, dtype=I64)


@op("aten::prod.out", tol="reduce")
def prod_all(c):
    for dt in [F32, F64, I32, I64, BOOL]:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt, -1.5, 1.5), optional=True)
    c.case("f32_empty_is_one", self=c.rnd([0]))


@op("aten::cumsum.out", tol="reduce")
def cumsum(c):
    for dt in [F32, F64, F16, I32, I64, U8, BOOL]:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), dim=1, optional=True)
    c.case("f32_dim0", self=c.rnd([3, 4]), dim=0)
    c.case("i32_dtype_f32", self=c.rnd([3, 4], I32), dim=1, dtype=F32)
    c.case("f32_special_values", self=c.special(F32), dim=0)
    c.case("f32_rank0", self=c.rnd([]), dim=0)


@op("aten::var.correction_out", tol="reduce")
def var_correction(c):
    for dt in [F32, F64]:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 5], dt), dim=[1])
    c.case("f32_correction0_keepdim", self=c.rnd([3, 5]), dim=[0], correction=0, keepdim=True)
    c.case("f32_all_dims", self=c.rnd([3, 5]), dim=None)
    c.case("f32_single_element_nan", self=c.rnd([3, 1]), dim=[1])


@op("aten::var.out", tol="reduce")
def var_out(c):
    c.case("f32_unbiased", self=c.rnd([3, 5]), dim=[1], unbiased=True)
    c.case("f32_biased_keepdim", self=c.rnd([3, 5]), dim=[0], unbiased=False, keepdim=True)
