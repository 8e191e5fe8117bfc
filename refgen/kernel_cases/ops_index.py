"""Case specs for gather/scatter/index/embedding style ops and padding variants."""
import torch

from families import BF16, BOOL, F16, F32, F64, FLOATS, I8, I16, I32, I64, INTS, U8
from registry import op
from casegen import short

ALL_DT = FLOATS + INTS + [BOOL]


@op("aten::embedding.out", tol="exact")
def embedding(c):
    for dt in [F32, F64, F16, BF16, I64]:
        c.case("%s_weight_i64_idx" % short(dt), weight=c.rnd([5, 3], dt),
               indices=c.randint(0, 5, [4]), optional=True)
    c.case("f32_i32_indices", weight=c.rnd([5, 3]), indices=c.randint(0, 5, [2, 3], I32))
    c.case("f32_2d_indices", weight=c.rnd([6, 2]), indices=c.randint(0, 6, [2, 3]))
    c.case("f32_rank0_index", weight=c.rnd([6, 2]), indices=c.randint(0, 6, []))
    c.case("f32_empty_indices", weight=c.rnd([6, 2]), indices=c.randint(0, 6, [0]))
    c.case("f32_padding_idx_forward_ignored", weight=c.rnd([4, 3]),
           indices=c.randint(0, 4, [5]), padding_idx=1)
    c.case("f32_index_out_of_range_error", weight=c.rnd([4, 3]),
           indices=c.randint(4, 5, [2]), expect=True)


@op("aten::index_select.out", tol="exact")
def index_select(c):
    for dt in ALL_DT:
        c.case("%s_dim0" % short(dt), self=c.rnd([4, 3], dt), dim=0, index=c.randint(0, 4, [5]))
    c.case("f32_dim1_i32_index", self=c.rnd([2, 5]), dim=1, index=c.randint(0, 5, [3], I32))
    c.case("f32_negative_dim", self=c.rnd([2, 3, 4]), dim=-1, index=c.randint(0, 4, [2]))
    c.case("f32_rank0_index", self=c.rnd([4, 3]), dim=0, index=c.randint(0, 4, []))
    c.case("f32_empty_index", self=c.rnd([4, 3]), dim=0, index=c.randint(0, 4, [0]))
    c.case("f32_rank0_self", self=c.rnd([]), dim=0, index=c.randint(0, 1, [1]))
    c.case("f32_out_of_range_error", self=c.rnd([4, 3]), dim=0, index=c.randint(4, 6, [2]),
           expect=True)


@op("aten::index_copy.out", tol="exact")
def index_copy(c):
    # Distinct indices (torch leaves duplicates unspecified): a KV-cache style write.
    for dt in ALL_DT:
        c.case("%s_dim0" % short(dt), self=c.rnd([5, 3], dt), dim=0,
               index=torch.tensor([3, 0]), source=c.rnd([2, 3], dt))
    c.case("f32_cache_dim2", self=c.rnd([1, 2, 6, 4]), dim=2, index=torch.tensor([2, 3, 4]),
           source=c.rnd([1, 2, 3, 4]))
    c.case("f32_negative_dim_i32_index", self=c.rnd([2, 3, 4]), dim=-1,
           index=torch.tensor([1], dtype=torch.int32), source=c.rnd([2, 3, 1]), optional=True)
    c.case("f32_empty_index", self=c.rnd([4, 3]), dim=0, index=torch.zeros(0, dtype=torch.long),
           source=c.rnd([0, 3]))
    c.case("f32_out_of_range_error", self=c.rnd([4, 3]), dim=0, index=torch.tensor([4]),
           source=c.rnd([1, 3]), expect=True)
    c.case("f32_source_shape_error", self=c.rnd([4, 3]), dim=0, index=torch.tensor([1]),
           source=c.rnd([1, 2]), expect=True)


@op("aten::index.Tensor_out", tol="exact")
def index_tensor(c):
    for dt in [F32, F64, F16, I32, I64, U8, BOOL]:
        c.case("%s_first_dim" % short(dt), self=c.rnd([4, 3], dt),
               indices=[c.randint(0, 4, [5])])
    c.case("f32_two_index_tensors_broadcast", self=c.rnd([4, 5]),
           indices=[c.randint(0, 4, [3, 1]), c.randint(0, 5, [2])])
    c.case("f32_none_then_index", self=c.rnd([2, 4, 3]), indices=[None, c.randint(0, 4, [2])])
    c.case("f32_nonadjacent_indices", self=c.rnd([3, 2, 4]),
           indices=[c.randint(0, 3, [2]), None, c.randint(0, 4, [2])])
    c.case("f32_negative_indices", self=c.rnd([4, 3]), indices=[-c.randint(1, 5, [3])])
    c.case("f32_bool_mask", self=c.rnd([4, 3]), indices=[c.rnd([4], BOOL)])
    c.case("f32_bool_mask_2d", self=c.rnd([3, 3]), indices=[c.rnd([3, 3], BOOL)])
    c.case("f32_i32_index", self=c.rnd([4, 3]), indices=[c.randint(0, 4, [2], I32)])
    c.case("f32_out_of_range_error", self=c.rnd([4, 3]), indices=[c.randint(4, 6, [2])],
           expect=True)


@op("aten::gather.out", tol="exact")
def gather(c):
    for dt in ALL_DT:
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), dim=1,
               index=c.randint(0, 4, [3, 2]))
    c.case("f32_dim0", self=c.rnd([3, 4]), dim=0, index=c.randint(0, 3, [2, 4]))
    c.case("f32_index_smaller", self=c.rnd([3, 4, 2]), dim=2, index=c.randint(0, 2, [2, 3, 2]))
    c.case("f32_negative_dim", self=c.rnd([3, 4]), dim=-1, index=c.randint(0, 4, [3, 4]))
    c.case("f32_empty_index", self=c.rnd([3, 4]), dim=1, index=c.randint(0, 4, [3, 0]))
    c.case("f32_sparse_grad_true", self=c.rnd([3, 4]), dim=1, index=c.randint(0, 4, [3, 1]),
           sparse_grad=True, optional=True)
    c.case("f32_out_of_range_error", self=c.rnd([3, 4]), dim=1,
           index=c.randint(4, 6, [3, 1]), expect=True)
    c.case("f32_i32_index_error", self=c.rnd([3, 4]), dim=1,
           index=c.randint(0, 4, [3, 1], I32), expect=None)


@op("aten::scatter.src_out", tol="exact")
def scatter_src(c):
    for dt in ALL_DT:
        idx = c.randint(0, 4, [3, 4]).argsort(dim=1)[:, :2]
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), dim=1, index=idx,
               src=c.rnd([3, 2], dt))
    c.case("f32_dim0", self=c.rnd([3, 4]), dim=0, index=c.randint(0, 3, [3, 4]).argsort(dim=0)[:2],
           src=c.rnd([2, 4]))
    c.case("f32_src_larger_than_index", self=c.rnd([3, 4]), dim=1,
           index=c.randint(0, 4, [2, 4]).argsort(dim=1)[:, :1], src=c.rnd([3, 4]))
    c.case("f32_empty_index", self=c.rnd([3, 4]), dim=1, index=c.randint(0, 4, [3, 0]),
           src=c.rnd([3, 2]))
    c.case("f32_out_of_range_error", self=c.rnd([3, 4]), dim=1,
           index=c.randint(4, 6, [3, 1]), src=c.rnd([3, 1]), expect=True)


@op("aten::scatter.value_out", tol="exact")
def scatter_value(c):
    for dt in ALL_DT:
        idx = c.randint(0, 4, [3, 4]).argsort(dim=1)[:, :2]
        c.case("%s_dim1" % short(dt), self=c.rnd([3, 4], dt), dim=1, index=idx,
               value=1 if dt != BOOL else True)
    c.case("f32_float_value", self=c.rnd([3, 4]), dim=0,
           index=c.randint(0, 3, [3, 4]).argsort(dim=0)[:1], value=-2.5)
    c.case("f32_nan_value", self=c.rnd([3, 4]), dim=1, index=c.randint(0, 4, [3, 1]),
           value=float("nan"))


@op("aten::scatter_add.out", tol="elementwise")
def scatter_add(c):
    for dt in [F32, F64, I32, I64]:
        c.case("%s_dim1_duplicates" % short(dt), self=c.rnd([3, 4], dt), dim=1,
               index=c.randint(0, 4, [3, 5]), src=c.rnd([3, 5], dt))
    c.case("f32_dim0", self=c.rnd([3, 4]), dim=0, index=c.randint(0, 3, [5, 4]),
           src=c.rnd([5, 4]))


@op("aten::select_scatter.out", tol="exact")
def select_scatter(c):
    c.case("f32_dim0", self=c.rnd([3, 4]), src=c.rnd([4]), dim=0, index=1)
    c.case("i64_dim1_negative_index", self=c.rnd([3, 4], I64), src=c.rnd([3], I64), dim=1,
           index=-1)
    c.case("f32_src_shape_error", self=c.rnd([3, 4]), src=c.rnd([3]), dim=0, index=0,
           expect=True)


@op("aten::slice_scatter.out", tol="exact")
def slice_scatter(c):
    c.case("f32_dim0", self=c.rnd([4, 3]), src=c.rnd([2, 3]), dim=0, start=1, end=3)
    c.case("f32_step2", self=c.rnd([3, 6]), src=c.rnd([3, 3]), dim=1, start=0, end=6, step=2)
    c.case("i64_defaults", self=c.rnd([2, 3], I64), src=c.rnd([2, 3], I64))


@op("aten::masked_fill.Scalar_out", tol="exact")
def masked_fill(c):
    for dt in [F32, F64, F16, I32, I64, BOOL]:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt), mask=c.rnd([2, 3], BOOL),
               value=1 if dt != BOOL else True)
    c.case("f32_broadcast_mask", self=c.rnd([3, 4]), mask=c.rnd([4], BOOL), value=-1.5)
    c.case("f32_neg_inf", self=c.rnd([3, 4]), mask=c.rnd([3, 4], BOOL), value=-float("inf"))
    c.case("f32_rank0_mask", self=c.rnd([3]), mask=c.rnd([], BOOL), value=0.0)
    c.case("f32_u8_mask_error", self=c.rnd([3]), mask=c.rnd([3], U8), value=0.0, expect=True)


@op("aten::reflection_pad1d.out", "aten::replication_pad1d.out", tol="exact")
def pad1d(c):
    c.case("f32_2d", self=c.rnd([2, 5]), padding=[2, 1])
    c.case("f32_3d", self=c.rnd([1, 2, 4]), padding=[1, 3])
    c.case("f64_zero_pad", self=c.rnd([1, 3], F64), padding=[0, 0])


@op("aten::reflection_pad2d.out", "aten::replication_pad2d.out", tol="exact")
def pad2d(c):
    c.case("f32_4d", self=c.rnd([1, 2, 3, 4]), padding=[1, 2, 2, 1])
    c.case("f32_3d", self=c.rnd([2, 3, 3]), padding=[1, 1, 1, 1])
    c.case("i64_4d", self=c.rnd([1, 1, 3, 3], I64), padding=[2, 0, 0, 2], optional=True)


@op("aten::reflection_pad3d.out", "aten::replication_pad3d.out", tol="exact")
def pad3d(c):
    c.case("f32_5d", self=c.rnd([1, 1, 3, 3, 3]), padding=[1, 1, 0, 2, 1, 0])


@op("aten::fill.Scalar_out", tol="exact")
def fill_scalar(c):
    for dt in [F32, I64, BOOL, F16]:
        c.case("%s" % short(dt), self=c.rnd([2, 3], dt), value=1 if dt != BOOL else True)
    c.case("f32_float", self=c.rnd([2, 2]), value=-0.5)


@op("aten::fill.Tensor_out", tol="exact")
def fill_tensor(c):
    c.case("f32", self=c.rnd([2, 3]), value=c.rnd([]))
    c.case("i64_from_f32", self=c.rnd([2, 3], I64), value=c.rnd([]))
    c.case("f32_non_rank0_error", self=c.rnd([2, 3]), value=c.rnd([2]), expect=True)


@op("aten::diagonal_copy.out", tol="exact")
def diagonal_copy(c):
    c.case("f32_square", self=c.rnd([4, 4]))
    c.case("f32_offset1", self=c.rnd([3, 5]), offset=1)
    c.case("f32_offset_m2_dims", self=c.rnd([2, 4, 3]), offset=-1, dim1=1, dim2=2)


@op("aten::alias_copy.out", "aten::detach_copy.out", "aten::lift_fresh_copy.out", tol="exact")
def alias_copy(c):
    for dt in [F32, I64, BOOL]:
        c.case("%s_2x3" % short(dt), self=c.rnd([2, 3], dt))
    c.case("f32_rank0", self=c.rnd([]))


@op("aten::narrow_copy.out", tol="exact")
def narrow_copy(c):
    c.case("f32_dim0", self=c.rnd([5, 2]), dim=0, start=1, length=3)
    c.case("f32_negative_start", self=c.rnd([2, 5]), dim=1, start=-2, length=2)
    c.case("f32_too_long_error", self=c.rnd([2, 5]), dim=1, start=3, length=3, expect=True)


@op("aten::unfold_copy.out", tol="exact")
def unfold_copy(c):
    c.case("f32_size2_step1", self=c.rnd([5]), dimension=0, size=2, step=1)
    c.case("f32_2d_dim1_step2", self=c.rnd([2, 7]), dimension=1, size=3, step=2)


@op("aten::repeat_interleave.Tensor_out", tol="exact")
def repeat_interleave(c):
    c.case("i64_counts", repeats=c.randint(0, 4, [5]))


@op("aten::masked_select.out", tol="exact")
def masked_select(c):
    c.case("f32_2x3", self=c.rnd([2, 3]), mask=c.rnd([2, 3], BOOL))
    c.case("f32_broadcast_mask", self=c.rnd([3, 4]), mask=c.rnd([4], BOOL))


@op("aten::masked_scatter.out", tol="exact")
def masked_scatter(c):
    c.case("f32_2x3", self=c.rnd([2, 3]), mask=c.rnd([2, 3], BOOL), source=c.rnd([6]))


@op("aten::nonzero.out", tol="exact")
def nonzero(c):
    c.case("f32_2x3", self=c.rnd([2, 3]).round())
    c.case("bool_1d", self=c.rnd([6], BOOL))
    c.case("i64_all_zero", self=c.rnd([2, 2], I64) * 0)


@op("aten::topk.values", tol="exact")
def topk(c):
    c.case("f32_k2_largest", self=c.rnd([3, 5]), k=2)
    c.case("f32_k3_smallest_dim0", self=c.rnd([4, 3]), k=3, dim=0, largest=False)
    c.case("i64_k1", self=c.rnd([5], I64) * 100 + c.randint(0, 100, [5]), k=1)


@op("aten::scatter_reduce.two_out", tol="reduce")
def scatter_reduce(c):
    # index [2,4] into dim 1 of a [2,5] self: repeated targets, and column 4 receives nothing
    index = torch.tensor([[0, 1, 0, 3], [2, 2, 2, 0]])
    for reduce in ("sum", "prod", "mean", "amax", "amin"):
        for include_self in (True, False):
            c.case("f32_%s_%s" % (reduce, "self" if include_self else "noself"),
                   self=c.rnd([2, 5]), dim=1, index=index, src=c.rnd([2, 4]), reduce=reduce,
                   include_self=include_self)
    c.case("i64_mean_floor", self=c.randint(-9, 9, [2, 5]), dim=1, index=index,
           src=c.randint(-9, 9, [2, 4]), reduce="mean")
    c.case("i64_amax_dim0_noself", self=c.randint(-9, 9, [3, 2]), dim=0,
           index=torch.tensor([[2, 0], [2, 2]]), src=c.randint(-9, 9, [2, 2]), reduce="amax",
           include_self=False)


@op("aten::sort.values", tol="exact")
def sort(c):
    # ties (rounded values) must keep their input order (stable, like torch's CPU sort); NaN
    # sorts last ascending and first descending
    c.case("f32_ties_last_dim", self=(c.rnd([3, 7]) * 2).round())
    c.case("f32_descending_dim0", self=(c.rnd([6, 4]) * 2).round(), dim=0, descending=True)
    c.case("f32_nan", self=torch.tensor([1.0, float("nan"), -2.0, 0.5, float("nan"), 3.0]))
    c.case("f32_nan_descending", self=torch.tensor([1.0, float("nan"), -2.0, 3.0]),
           descending=True)
    # torch's default sort (stable=False) orders ties its own way in long rows: distinct values
    c.case("i64_long_row_distinct", self=(torch.arange(200).reshape(2, 100) * 37) % 211 - 100,
           dim=1)
    c.case("f32_scalar", self=c.rnd([]))


@op("aten::scalar_tensor.out", tol="exact")
def scalar_tensor(c):
    c.case("f32", s=2.5, out_dtypes=[F32])
    c.case("i64", s=-3, out_dtypes=[I64])
    c.case("bool", s=True, out_dtypes=[BOOL])


@op("aten::var_mean.correction_out", tol="reduce")
def var_mean(c):
    c.case("f32_dim1", self=c.rnd([3, 5]), dim=[1])
    c.case("f32_keepdim_correction0", self=c.rnd([3, 5]), dim=[0], correction=0, keepdim=True)


@op("aten::_native_batch_norm_legit.out", tol="reduce")
def bn_legit_training(c):
    c.case("f32_training", input=c.rnd([2, 3, 2, 2]), weight=c.rnd([3]), bias=c.rnd([3]),
           running_mean=c.rnd([3]), running_var=c.pos([3]), training=True, momentum=0.1,
           eps=1e-5)
    c.case("f32_eval", input=c.rnd([2, 3, 2, 2]), weight=c.rnd([3]), bias=c.rnd([3]),
           running_mean=c.rnd([3]), running_var=c.pos([3]), training=False, momentum=0.1,
           eps=1e-5)


@op("aten::_cdist_forward.out", tol="reduce")
def cdist(c):
    c.case("f32_p2", x1=c.rnd([3, 4]), x2=c.rnd([2, 4]), p=2.0, compute_mode=None)
    c.case("f32_p1_batched", x1=c.rnd([2, 3, 4]), x2=c.rnd([2, 5, 4]), p=1.0, compute_mode=None)


@op("aten::_pdist_forward.out", tol="reduce")
def pdist(c):
    c.case("f32_p2", self=c.rnd([4, 3]))
    c.case("f32_p1", self=c.rnd([3, 2]), p=1.0)



@op("aten::_embedding_bag.out", tol="reduce")
def embedding_bag(c):
    # bags [0, 4), [4, 4) (empty), [4, 6), [6, 8); index 2 doubles as padding_idx; repeated rows
    # and a tie for max (row 4 twice in bag 0 of the "ties" case)
    idx = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    off = torch.tensor([0, 4, 4, 6])
    for mode, name in ((0, "sum"), (1, "mean"), (2, "max")):
        for dt in (F32, F64, F16, BF16):
            c.case("%s_%s" % (short(dt), name), weight=c.rnd([10, 3], dt), indices=idx,
                   offsets=off, mode=mode, optional=True)
        c.case("f32_%s_padding_idx" % name, weight=c.rnd([10, 3]), indices=idx, offsets=off,
               mode=mode, padding_idx=2)
        c.case("f32_%s_include_last_offset" % name, weight=c.rnd([10, 4]), indices=idx,
               offsets=torch.tensor([0, 3, 3, 8]), mode=mode, include_last_offset=True)
        c.case("f32_%s_i32_indices" % name, weight=c.rnd([10, 3]), indices=idx.int(),
               offsets=off.int(), mode=mode)
    c.case("f32_sum_per_sample_weights", weight=c.rnd([10, 3]), indices=idx, offsets=off,
           per_sample_weights=c.rnd([8]))
    c.case("f32_max_ties", weight=torch.tensor([[1.0, 2.0], [3.0, 3.0], [3.0, 1.0]]),
           indices=torch.tensor([1, 2, 0, 1]), offsets=torch.tensor([0, 2]), mode=2)
    c.case("f32_index_out_of_range_error", weight=c.rnd([4, 3]), indices=torch.tensor([1, 4]),
           offsets=torch.tensor([0]), expect=True)
