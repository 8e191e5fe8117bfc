"""Case specs for the rest of the portable op set: shifts, copies, in-place ops, list outs,
backward ops, and the ExecuTorch dim-order ops (which torch does not define: their schema is
declared here and their reference is torch's _to_copy / clone with the matching layout)."""
import torch

from casegen import CUSTOM_OPS, CustomArg, CustomOp, short
from families import BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8, binary
from registry import op

ALL_DT = FLOATS + INTS + [BOOL]


@op("aten::bitwise_left_shift.Tensor_out", "aten::bitwise_right_shift.Tensor_out",
    tol="exact")
def shift_tensor(c):
    for dt in INTS:
        c.case("%s_same_2x3" % short(dt), self=c.rnd([2, 3], dt),
               other=c.randint(0, 4, [2, 3], dt))
    c.case("i32_broadcast", self=c.rnd([2, 3], I32), other=c.randint(0, 5, [3], I32))
    c.case("i64_large_shift", self=c.rnd([4], I64), other=torch.tensor([0, 31, 62, 63]))
    c.case("u8_shift_past_width", self=c.rnd([3], U8), other=torch.tensor([7, 8, 9], dtype=U8))
    c.case("promote_i8_i64", self=c.rnd([3], I8), other=c.randint(0, 3, [3], I64))
    c.case("f32_error", self=c.rnd([3]), other=c.rnd([3]), expect=True)


@op("aten::bitwise_left_shift.Tensor_Scalar_out", "aten::bitwise_right_shift.Tensor_Scalar_out",
    tol="exact")
def shift_scalar(c):
    for dt in INTS:
        c.case("%s_by_2" % short(dt), self=c.rnd([2, 3], dt), other=2)
    c.case("i64_by_0", self=c.rnd([3], I64), other=0)
    c.case("i32_negative_values_by_3", self=-c.pos([4], I32), other=3)


@op("aten::copy.out", tol="exact")
def copy_out(c):
    for dt in [F32, F64, I64, BOOL, F16]:
        c.case("%s_same_shape" % short(dt), self=c.rnd([2, 3], dt), src=c.rnd([2, 3], dt))
    c.case("f32_broadcast_src", self=c.rnd([2, 3]), src=c.rnd([3]))
    c.case("f32_from_i64_src", self=c.rnd([2, 3]), src=c.rnd([2, 3], I64))
    c.case("i32_from_f32_src", self=c.rnd([2, 3], I32), src=c.rnd([2, 3]))


@op("aten::copy_", tol="exact")
def copy_inplace(c):
    c.case("f32_same_shape", self=c.rnd([2, 3]), src=c.rnd([2, 3]))
    c.case("f32_broadcast_src", self=c.rnd([2, 3]), src=c.rnd([1, 3]))
    c.case("i64_from_f32", self=c.rnd([4], I64), src=c.rnd([4]))
    c.case("f32_bad_shape_error", self=c.rnd([2, 3]), src=c.rnd([4]), expect=True)


@op("aten::index_put.out", "aten::index_put_", tol="exact")
def index_put(c):
    c.case("f32_rows", self=c.rnd([4, 3]), indices=[torch.tensor([0, 2])], values=c.rnd([2, 3]))
    c.case("f32_broadcast_value", self=c.rnd([4, 3]), indices=[torch.tensor([3, 1])],
           values=c.rnd([]))
    c.case("f32_two_indices", self=c.rnd([3, 4]),
           indices=[torch.tensor([0, 2]), torch.tensor([1, 3])], values=c.rnd([2]))
    c.case("f32_accumulate_duplicates", self=c.rnd([4]), indices=[torch.tensor([1, 1, 2])],
           values=c.rnd([3]), accumulate=True)
    c.case("i64_bool_mask", self=c.rnd([4], I64), indices=[c.rnd([4], BOOL)],
           values=c.rnd([], I64))
    c.case("f32_none_then_index", self=c.rnd([2, 4]), indices=[None, torch.tensor([0, 3])],
           values=c.rnd([2, 2]))
    c.case("f32_out_of_range_error", self=c.rnd([4]), indices=[torch.tensor([5])],
           values=c.rnd([1]), expect=True)


@op("aten::split_copy.Tensor_out", tol="exact")
def split_copy(c):
    c.case("f32_even", self=c.rnd([4, 3]), split_size=2)
    c.case("f32_uneven_dim1", self=c.rnd([2, 5]), split_size=2, dim=1)
    c.case("i64_single_chunk", self=c.rnd([3], I64), split_size=5)


@op("aten::split_with_sizes_copy.out", tol="exact")
def split_with_sizes_copy(c):
    c.case("f32_sizes_1_3", self=c.rnd([4, 2]), split_sizes=[1, 3])
    c.case("f32_dim1_with_zero", self=c.rnd([2, 5]), split_sizes=[2, 0, 3], dim=1)


@op("aten::unbind_copy.int_out", tol="exact")
def unbind_copy(c):
    c.case("f32_dim0", self=c.rnd([3, 2]))
    c.case("i64_dim1", self=c.rnd([2, 3], I64), dim=1)


@op("aten::as_strided_copy.out", tol="exact")
def as_strided_copy(c):
    c.case("f32_transpose_view", self=c.rnd([2, 3]), size=[3, 2], stride=[1, 3])
    c.case("f32_overlapping", self=c.rnd([6]), size=[3, 3], stride=[1, 1])
    c.case("f32_storage_offset", self=c.rnd([10]), size=[2, 2], stride=[3, 1], storage_offset=2)


@op("aten::_native_batch_norm_legit.no_stats_out", tol="reduce")
def bn_no_stats(c):
    c.case("f32_training", input=c.rnd([2, 3, 2, 2]), weight=c.rnd([3]), bias=c.rnd([3]),
           training=True, momentum=0.1, eps=1e-5)
    c.case("f32_training_no_affine", input=c.rnd([4, 3]), weight=None, bias=None,
           training=True, momentum=0.1, eps=1e-5)


@op("aten::native_dropout.out", tol="exact")
def native_dropout(c):
    c.case("f32_eval", input=c.rnd([2, 3]), p=0.5, train=False)
    c.case("f32_train_p0", input=c.rnd([2, 3]), p=0.0, train=True)
    c.case("f32_train_none", input=c.rnd([4]), p=0.0, train=None)


@op("aten::_conj_physical.out", tol="exact")
def conj_physical(c):
    for dt in [F32, F64, I64]:
        c.case("%s_real_identity" % short(dt), self=c.rnd([2, 3], dt))


@op("aten::max_pool2d_with_indices_backward.grad_input", tol="reduce")
def max_pool_backward(c):
    x = c.rnd([1, 2, 4, 4])
    _, idx = torch.ops.aten.max_pool2d_with_indices(x, [2, 2], [2, 2])
    c.case("f32_k2_s2", grad_output=c.rnd([1, 2, 2, 2]), self=x, kernel_size=[2, 2],
           stride=[2, 2], padding=[0, 0], dilation=[1, 1], ceil_mode=False, indices=idx)
    x = c.rnd([1, 1, 5, 5])
    _, idx = torch.ops.aten.max_pool2d_with_indices(x, [3, 3], [1, 1], [1, 1])
    c.case("f32_overlapping_windows", grad_output=c.rnd([1, 1, 5, 5]), self=x,
           kernel_size=[3, 3], stride=[1, 1], padding=[1, 1], dilation=[1, 1], ceil_mode=False,
           indices=idx)


@op("aten::convolution_backward.out", tol="loose")
def conv_backward(c):
    x, w = c.rnd([1, 2, 5, 5]), c.rnd([3, 2, 3, 3])
    c.case("f32_all_grads", grad_output=c.rnd([1, 3, 3, 3]), input=x, weight=w, bias_sizes=[3],
           stride=[1, 1], padding=[0, 0], dilation=[1, 1], transposed=False,
           output_padding=[0, 0], groups=1, output_mask=[True, True, True])
    x, w = c.rnd([2, 4, 6, 6]), c.rnd([4, 2, 3, 3])
    c.case("f32_groups2_stride2_pad1", grad_output=c.rnd([2, 4, 3, 3]), input=x, weight=w,
           bias_sizes=[4], stride=[2, 2], padding=[1, 1], dilation=[1, 1], transposed=False,
           output_padding=[0, 0], groups=2, output_mask=[True, True, True])


def _dim_order_format(dim_order, ndim):
    if dim_order is None or list(dim_order) == list(range(ndim)):
        return torch.contiguous_format
    if ndim == 4 and list(dim_order) == [0, 2, 3, 1]:
        return torch.channels_last
    raise ValueError("unsupported dim_order %s" % (dim_order,))


def _dim_order_copy(self, non_blocking, dim_order, out, same_dtype):
    if same_dtype and out.dtype != self.dtype:
        raise ValueError("_clone_dim_order: out dtype %s differs from input %s" % (out.dtype,
                                                                                   self.dtype))
    fmt = _dim_order_format(dim_order, self.dim())
    res = self.to(dtype=out.dtype, memory_format=fmt, copy=True)
    out.set_(res)
    return out


_DIM_ORDER_ARGS = [CustomArg("self", "Tensor"), CustomArg("non_blocking", "bool", False),
                   CustomArg("dim_order", "Optional[List[int]]", None),
                   CustomArg("out", "Tensor", is_out=True)]
CUSTOM_OPS["dim_order_ops::_to_dim_order_copy.out"] = CustomOp(
    _DIM_ORDER_ARGS, lambda self, non_blocking, dim_order, out: _dim_order_copy(
        self, non_blocking, dim_order, out, same_dtype=False))
CUSTOM_OPS["dim_order_ops::_clone_dim_order.out"] = CustomOp(
    _DIM_ORDER_ARGS, lambda self, non_blocking, dim_order, out: _dim_order_copy(
        self, non_blocking, dim_order, out, same_dtype=True))


@op("dim_order_ops::_to_dim_order_copy.out", tol="exact")
def to_dim_order_copy(c):
    for src, dst in [(F32, F32), (F32, F64), (F32, F16), (F32, BF16), (F32, I64), (I64, F32),
                     (I32, I64), (BOOL, F32), (F32, BOOL), (F16, F32), (U8, I32)]:
        c.case("%s_to_%s" % (short(src), short(dst)), self=c.rnd([2, 3], src, -5.7, 5.7),
               dim_order=[0, 1], out_dtypes=[dst])
    c.case("f32_to_channels_last", self=c.rnd([1, 3, 2, 2]), dim_order=[0, 2, 3, 1],
           out_dtypes=[F32])
    c.case("f32_channels_last_to_contiguous", self=c.cl(c.rnd([2, 3, 2, 2])),
           dim_order=[0, 1, 2, 3], out_dtypes=[F32])
    c.case("f32_channels_last_to_f16_channels_last", self=c.cl(c.rnd([1, 2, 3, 2])),
           dim_order=[0, 2, 3, 1], out_dtypes=[F16])
    c.case("f32_special_to_i32", self=c.special(F32)[3:], dim_order=[0], out_dtypes=[I32])
    c.case("f32_rank0", self=c.rnd([]), dim_order=[], out_dtypes=[F64])
    c.case("f32_empty", self=c.rnd([0, 2]), dim_order=[0, 1], out_dtypes=[F32])


@op("dim_order_ops::_clone_dim_order.out", tol="exact")
def clone_dim_order(c):
    for dt in ALL_DT:
        c.case("%s_contiguous" % short(dt), self=c.rnd([2, 3], dt), dim_order=[0, 1],
               out_dtypes=[dt])
    c.case("f32_to_channels_last", self=c.rnd([1, 3, 2, 2]), dim_order=[0, 2, 3, 1],
           out_dtypes=[F32])
    c.case("f32_channels_last_to_contiguous", self=c.cl(c.rnd([2, 3, 2, 2])),
           dim_order=[0, 1, 2, 3], out_dtypes=[F32])
    c.case("f32_dtype_change_error", self=c.rnd([2, 3]), dim_order=[0, 1], out_dtypes=[F64],
           expect=True)
