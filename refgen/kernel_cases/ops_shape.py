"""Case specs for copies, views, concatenation, padding and creation ops."""
import torch

from families import BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8
from registry import op
from casegen import short

ALL_DT = FLOATS + INTS + [BOOL]


@op("aten::cat.out", tol="exact")
def cat(c):
    for dt in ALL_DT:
        c.case("%s_dim0" % short(dt), tensors=[c.rnd([2, 3], dt), c.rnd([1, 3], dt)], dim=0)
    c.case("f32_dim1_three", tensors=[c.rnd([2, 1]), c.rnd([2, 3]), c.rnd([2, 2])], dim=1)
    c.case("f32_negative_dim", tensors=[c.rnd([2, 2, 1]), c.rnd([2, 2, 2])], dim=-1)
    c.case("f32_single_tensor", tensors=[c.rnd([2, 3])], dim=0)
    c.case("f32_with_empty_part", tensors=[c.rnd([2, 3]), c.rnd([0, 3])], dim=0)
    c.case("f32_legacy_empty_1d_part", tensors=[c.rnd([2, 3]), c.rnd([0])], dim=1)
    c.case("promote_i32_f32", tensors=[c.rnd([1, 3], I32), c.rnd([2, 3])], dim=0)
    c.case("promote_bool_u8", tensors=[c.rnd([1, 3], BOOL), c.rnd([2, 3], U8)], dim=0)
    c.case("f32_channels_last_dim1", tensors=[c.cl(c.rnd([1, 2, 2, 2])),
                                               c.cl(c.rnd([1, 3, 2, 2]))], dim=1)
    c.case("f32_shape_mismatch_error", tensors=[c.rnd([2, 3]), c.rnd([2, 4])], dim=0,
           expect=True)
    c.case("f32_rank0_error", tensors=[c.rnd([]), c.rnd([])], dim=0, expect=True)


@op("aten::stack.out", tol="exact")
def stack(c):
    for dt in [F32, I64, BOOL, F16]:
        c.case("%s_dim0" % short(dt), tensors=[c.rnd([2, 3], dt), c.rnd([2, 3], dt)], dim=0)
    c.case("f32_dim2", tensors=[c.rnd([2, 3]), c.rnd([2, 3]), c.rnd([2, 3])], dim=2)
    c.case("f32_negative_dim", tensors=[c.rnd([2]), c.rnd([2])], dim=-1)
    c.case("f32_rank0", tensors=[c.rnd([]), c.rnd([])], dim=0)


@op("aten::slice_copy.Tensor_out", tol="exact")
def slice_copy(c):
    for dt in ALL_DT:
        c.case("%s_dim0_1_3" % short(dt), self=c.rnd([4, 3], dt), dim=0, start=1, end=3)
    c.case("f32_step2", self=c.rnd([3, 7]), dim=1, start=0, end=7, step=2)
    c.case("f32_negative_start", self=c.rnd([5, 2]), dim=0, start=-3)
    c.case("f32_end_past_size", self=c.rnd([5, 2]), dim=0, start=2, end=100)
    c.case("f32_start_none_end_none", self=c.rnd([3, 2]), dim=1)
    c.case("f32_empty_result", self=c.rnd([5, 2]), dim=0, start=3, end=1)
    c.case("f32_int64_max_end", self=c.rnd([4, 3]), dim=1, start=1, end=9223372036854775807)
    c.case("f32_step0_error", self=c.rnd([4, 3]), dim=1, step=0, expect=True)
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 4, 3, 3])), dim=1, start=1, end=3)


@op("aten::select_copy.int_out", tol="exact")
def select_copy(c):
    for dt in ALL_DT:
        c.case("%s_dim0" % short(dt), self=c.rnd([3, 4], dt), dim=0, index=1)
    c.case("f32_negative_index", self=c.rnd([3, 4]), dim=1, index=-1)
    c.case("f32_3d_middle", self=c.rnd([2, 3, 4]), dim=1, index=2)
    c.case("f32_1d_to_rank0", self=c.rnd([5]), dim=0, index=3)
    c.case("f32_index_out_of_range_error", self=c.rnd([3, 4]), dim=0, index=3, expect=True)


@op("aten::view_copy.out", tol="exact")
def view_copy(c):
    for dt in ALL_DT:
        c.case("%s_2x6_to_3x4" % short(dt), self=c.rnd([2, 6], dt), size=[3, 4])
    c.case("f32_infer_minus1", self=c.rnd([2, 3, 4]), size=[-1, 4])
    c.case("f32_to_rank0", self=c.rnd([1, 1]), size=[])
    c.case("f32_empty", self=c.rnd([0, 4]), size=[2, 0, 2])
    c.case("f32_bad_numel_error", self=c.rnd([2, 3]), size=[4, 2], expect=True)


@op("aten::permute_copy.out", tol="exact")
def permute_copy(c):
    for dt in ALL_DT:
        c.case("%s_3d" % short(dt), self=c.rnd([2, 3, 4], dt), dims=[2, 0, 1])
    c.case("f32_negative_dims", self=c.rnd([2, 3]), dims=[-1, 0])
    c.case("f32_nchw_to_nhwc", self=c.rnd([1, 3, 2, 2]), dims=[0, 2, 3, 1])
    c.case("f32_channels_last_input", self=c.cl(c.rnd([1, 3, 2, 2])), dims=[0, 2, 3, 1])
    c.case("f32_repeated_dim_error", self=c.rnd([2, 3]), dims=[0, 0], expect=True)


@op("aten::transpose_copy.int_out", tol="exact")
def transpose_copy(c):
    c.case("f32_2d", self=c.rnd([2, 3]), dim0=0, dim1=1)
    c.case("i64_3d_negative", self=c.rnd([2, 3, 4], I64), dim0=-1, dim1=0)
    c.case("f32_same_dim", self=c.rnd([2, 3]), dim0=1, dim1=1)


@op("aten::t_copy.out", tol="exact")
def t_copy(c):
    c.case("f32_2d", self=c.rnd([2, 3]))
    c.case("f32_1d", self=c.rnd([4]))
    c.case("f32_3d_error", self=c.rnd([2, 2, 2]), expect=True)


@op("aten::expand_copy.out", tol="exact")
def expand_copy(c):
    for dt in ALL_DT:
        c.case("%s_3x1_to_3x4" % short(dt), self=c.rnd([3, 1], dt), size=[3, 4])
    c.case("f32_new_leading_dims", self=c.rnd([3]), size=[2, 2, 3])
    c.case("f32_minus1_keeps", self=c.rnd([1, 3]), size=[4, -1])
    c.case("f32_rank0_to_2x2", self=c.rnd([]), size=[2, 2])
    c.case("f32_bad_size_error", self=c.rnd([2, 3]), size=[4, 3], expect=True)


@op("aten::unsqueeze_copy.out", tol="exact")
def unsqueeze_copy(c):
    for dt in ALL_DT:
        c.case("%s_dim1" % short(dt), self=c.rnd([2, 3], dt), dim=1)
    c.case("f32_dim_last", self=c.rnd([2, 3]), dim=2)
    c.case("f32_negative_dim", self=c.rnd([2, 3]), dim=-1)
    c.case("f32_rank0", self=c.rnd([]), dim=0)
    c.case("f32_out_of_range_error", self=c.rnd([2, 3]), dim=4, expect=True)


@op("aten::squeeze_copy.dims_out", tol="exact")
def squeeze_copy_dims(c):
    for dt in ALL_DT:
        c.case("%s_dims0_2" % short(dt), self=c.rnd([1, 3, 1], dt), dim=[0, 2])
    c.case("f32_non_size1_dim_kept", self=c.rnd([1, 3, 1]), dim=[1])
    c.case("f32_negative_dim", self=c.rnd([2, 1]), dim=[-1])
    c.case("f32_to_rank0", self=c.rnd([1, 1]), dim=[0, 1])
    c.case("f32_empty_dims_list", self=c.rnd([1, 2]), dim=[])


@op("aten::squeeze_copy.dim_out", tol="exact")
def squeeze_copy_dim(c):
    c.case("f32_dim0", self=c.rnd([1, 3]), dim=0)
    c.case("f32_non_size1", self=c.rnd([2, 3]), dim=1)
    c.case("i64_negative", self=c.rnd([2, 1], I64), dim=-1)


@op("aten::clone.out", tol="exact")
def clone(c):
    for dt in ALL_DT:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt))
    c.case("f32_special_values", self=c.special(F32))
    c.case("f32_channels_last_preserve", self=c.cl(c.rnd([1, 3, 2, 2])))
    c.case("f32_to_channels_last", self=c.rnd([1, 3, 2, 2]), memory_format=torch.channels_last,
           optional=True)
    c.case("f32_contiguous_format", self=c.rnd([2, 3]), memory_format=torch.contiguous_format)
    c.case("f32_empty", self=c.rnd([0, 2]))
    c.case("f32_rank0", self=c.rnd([]))


@op("aten::_to_copy.out", tol="exact")
def to_copy(c):
    sources = [F32, F64, F16, BF16, I32, I64, U8, I8, BOOL]
    for src in sources:
        for dst in [F32, F64, F16, BF16, I32, I64, U8, I8, I16, BOOL]:
            if src == dst and src not in (F32, I64):
                continue
            x = c.rnd([2, 3], src, -5.7, 5.7) if src.is_floating_point else c.rnd([2, 3], src)
            c.case("%s_to_%s" % (short(src), short(dst)), self=x, out_dtypes=[dst])
    c.case("f32_special_to_f16", self=c.special(F32), out_dtypes=[F16])
    c.case("f32_special_to_bf16", self=c.special(F32), out_dtypes=[BF16])
    c.case("f32_special_to_bool", self=c.special(F32), out_dtypes=[BOOL])
    c.case("f64_special_to_f32", self=c.special(F64), out_dtypes=[F32])
    c.case("i64_extremes_to_i32", self=c.special(I64), out_dtypes=[I32])
    c.case("i32_extremes_to_i8", self=c.special(I32), out_dtypes=[I8])
    c.case("f32_negative_to_u8", self=-c.pos([4], F32, 1, 100).round(), out_dtypes=[U8])
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 3, 2, 2])), out_dtypes=[F64])
    c.case("f32_empty", self=c.rnd([0, 3]), out_dtypes=[F16])


@op("aten::constant_pad_nd.out", tol="exact")
def constant_pad(c):
    for dt in ALL_DT:
        c.case("%s_last_dim" % short(dt), self=c.rnd([2, 3], dt), pad=[1, 2],
               value=1 if dt != BOOL else True, optional=True)
    c.case("f32_two_dims", self=c.rnd([1, 2, 3]), pad=[1, 0, 2, 1], value=-1.5)
    c.case("f32_three_dims", self=c.rnd([2, 2, 2]), pad=[0, 1, 1, 0, 1, 1])
    c.case("f32_negative_pad_crops", self=c.rnd([3, 5]), pad=[-1, 2, 0, -1])
    c.case("f32_nan_value", self=c.rnd([2, 2]), pad=[1, 1], value=float("nan"))
    c.case("f32_nchw", self=c.rnd([1, 2, 3, 3]), pad=[1, 1, 1, 1], value=0.0)
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 2, 3, 3])), pad=[1, 1, 1, 1], value=0.0)
    c.case("f32_empty_input", self=c.rnd([0, 2]), pad=[1, 1], value=2.0)
    c.case("i32_float_value_truncates", self=c.rnd([2, 2], I32), pad=[1, 1], value=1.5)
    c.case("f32_odd_pad_length_error", self=c.rnd([2, 2]), pad=[1], expect=True)


@op("aten::full.out", tol="exact")
def full(c):
    for dt in ALL_DT:
        c.case("%s_2x3" % short(dt), size=[2, 3], fill_value=3 if dt != BOOL else True,
               out_dtypes=[dt])
    c.case("f32_float_fill", size=[4], fill_value=-1.25, out_dtypes=[F32])
    c.case("f32_nan_fill", size=[2], fill_value=float("nan"), out_dtypes=[F32])
    c.case("f32_rank0", size=[], fill_value=2.0, out_dtypes=[F32])
    c.case("f32_empty", size=[0, 3], fill_value=2.0, out_dtypes=[F32])
    c.case("i64_float_fill_truncates", size=[3], fill_value=2.7, out_dtypes=[I64],
           optional=True)
    c.case("u8_fill_300_error", size=[3], fill_value=300, out_dtypes=[U8], expect=None)


@op("aten::full_like.out", tol="exact")
def full_like(c):
    for dt in ALL_DT:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt), fill_value=1 if dt != BOOL else True)
    c.case("f32_float_fill", self=c.rnd([4]), fill_value=-7.5)
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 3, 2, 2])), fill_value=0.5)
    c.case("f32_empty", self=c.rnd([0]), fill_value=0.5)


@op("aten::zeros.out", "aten::ones.out", tol="exact")
def zeros(c):
    for dt in [F32, F64, F16, I32, I64, U8, BOOL]:
        c.case("%s_2x3" % short(dt), size=[2, 3], out_dtypes=[dt])
    c.case("f32_empty", size=[0], out_dtypes=[F32])
    c.case("f32_rank0", size=[], out_dtypes=[F32])


@op("aten::arange.out", tol="elementwise")
def arange(c):
    for dt in [F32, F64, F16, I32, I64, U8, I8]:
        c.case("%s_end_5" % short(dt), end=5, out_dtypes=[dt])
    c.case("f32_end_2p5", end=2.5, out_dtypes=[F32])
    c.case("i64_end_0", end=0, out_dtypes=[I64])
    c.case("i64_end_negative_error", end=-3, out_dtypes=[I64], expect=True)


@op("aten::arange.start_out", tol="elementwise")
def arange_start(c):
    for dt in [F32, F64, I32, I64]:
        c.case("%s_1_7_2" % short(dt), start=1, end=7, step=2, out_dtypes=[dt])
    c.case("f32_fractional_step", start=0.0, end=1.0, step=0.3, out_dtypes=[F32])
    c.case("f32_negative_step", start=5, end=-1, step=-1.5, out_dtypes=[F32])
    c.case("i64_negative_step", start=5, end=0, step=-2, out_dtypes=[I64])
    c.case("f64_many", start=-1.0, end=1.0, step=0.1, out_dtypes=[F64])
    c.case("i64_empty_range", start=3, end=3, out_dtypes=[I64])
    c.case("i64_step0_error", start=0, end=4, step=0, out_dtypes=[I64], expect=True)
    c.case("i64_wrong_sign_error", start=0, end=4, step=-1, out_dtypes=[I64], expect=True)


@op("aten::flip.out", tol="exact")
def flip(c):
    for dt in [F32, I64, BOOL, F16]:
        c.case("%s_dim1" % short(dt), self=c.rnd([2, 3], dt), dims=[1])
    c.case("f32_both_dims", self=c.rnd([2, 3, 2]), dims=[0, -1])
    c.case("f32_no_dims", self=c.rnd([2, 3]), dims=[])


@op("aten::roll.out", tol="exact")
def roll(c):
    c.case("f32_dim1", self=c.rnd([2, 5]), shifts=[2], dims=[1])
    c.case("f32_negative_shift", self=c.rnd([2, 5]), shifts=[-1], dims=[1])
    c.case("f32_flat", self=c.rnd([2, 3]), shifts=[4], dims=[])
    c.case("i64_two_dims", self=c.rnd([3, 4], I64), shifts=[1, -2], dims=[0, 1])


@op("aten::repeat.out", tol="exact")
def repeat(c):
    c.case("f32_2x3", self=c.rnd([2, 3]), repeats=[2, 2])
    c.case("f32_new_dims", self=c.rnd([3]), repeats=[2, 1, 2])
    c.case("i64_zero", self=c.rnd([2, 2], I64), repeats=[0, 3])
    c.case("f32_too_few_error", self=c.rnd([2, 3]), repeats=[2], expect=True)


@op("aten::tril.out", tol="exact")
def tril(c):
    c.case("f32_square", self=c.rnd([4, 4]))
    c.case("f32_diag1", self=c.rnd([3, 5]), diagonal=1)
    c.case("i64_diag_m1_batched", self=c.rnd([2, 3, 3], I64), diagonal=-1)


@op("aten::pixel_shuffle.out", "aten::pixel_unshuffle.out", tol="exact")
def pixel_shuffle(c):
    if "unshuffle" in c.op_key:
        c.case("f32_factor2", self=c.rnd([1, 2, 4, 6]), downscale_factor=2)
        c.case("i64_factor3", self=c.rnd([2, 1, 3, 3], I64), downscale_factor=3)
    else:
        c.case("f32_factor2", self=c.rnd([1, 8, 2, 3]), upscale_factor=2)
        c.case("i64_factor3", self=c.rnd([2, 9, 1, 1], I64), upscale_factor=3)
        c.case("f32_bad_channels_error", self=c.rnd([1, 3, 2, 2]), upscale_factor=2,
               expect=True)
