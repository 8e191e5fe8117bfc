"""Dtype sweeps for ops whose main spec has few cases: each op gets one case per dtype PyTorch
supports for it (dtypes it rejects are dropped, not recorded as errors)."""
import torch

from casegen import ALL, BOOL, F32, I64, short
from registry import SPECS

# op key -> function(c, dtype) returning the case kwargs for one dtype.
SWEEPS = {
    "aten::transpose_copy.int_out": lambda c, dt: dict(self=c.rnd([2, 3, 2], dt), dim0=0, dim1=2),
    "aten::t_copy.out": lambda c, dt: dict(self=c.rnd([3, 2], dt)),
    "aten::squeeze_copy.dim_out": lambda c, dt: dict(self=c.rnd([2, 1, 3], dt), dim=1),
    "aten::tril.out": lambda c, dt: dict(self=c.rnd([3, 4], dt), diagonal=0),
    "aten::roll.out": lambda c, dt: dict(self=c.rnd([2, 3], dt), shifts=[1], dims=[1]),
    "aten::repeat.out": lambda c, dt: dict(self=c.rnd([2, 1], dt), repeats=[1, 3]),
    "aten::flip.out": lambda c, dt: dict(self=c.rnd([2, 3], dt), dims=[0]),
    "aten::narrow_copy.out": lambda c, dt: dict(self=c.rnd([4, 2], dt), dim=0, start=1,
                                                length=2),
    "aten::unfold_copy.out": lambda c, dt: dict(self=c.rnd([6], dt), dimension=0, size=3,
                                                step=2),
    "aten::diagonal_copy.out": lambda c, dt: dict(self=c.rnd([3, 3], dt)),
    "aten::select_scatter.out": lambda c, dt: dict(self=c.rnd([3, 2], dt), src=c.rnd([2], dt),
                                                   dim=0, index=2),
    "aten::slice_scatter.out": lambda c, dt: dict(self=c.rnd([4, 2], dt), src=c.rnd([2, 2], dt),
                                                  dim=0, start=0, end=4, step=2),
    "aten::masked_select.out": lambda c, dt: dict(self=c.rnd([2, 3], dt),
                                                  mask=c.rnd([2, 3], BOOL)),
    "aten::nonzero.out": lambda c, dt: dict(self=c.rnd([2, 3], dt)),
    "aten::topk.values": lambda c, dt: dict(self=c.rnd([2, 5], dt), k=2),
    "aten::stack.out": lambda c, dt: dict(tensors=[c.rnd([2], dt), c.rnd([2], dt)], dim=1),
    "aten::split_copy.Tensor_out": lambda c, dt: dict(self=c.rnd([5, 2], dt), split_size=2),
    "aten::unbind_copy.int_out": lambda c, dt: dict(self=c.rnd([2, 3], dt), dim=0),
    "aten::split_with_sizes_copy.out": lambda c, dt: dict(self=c.rnd([3, 2], dt),
                                                          split_sizes=[2, 1]),
    "aten::pixel_shuffle.out": lambda c, dt: dict(self=c.rnd([1, 4, 1, 2], dt),
                                                  upscale_factor=2),
    "aten::pixel_unshuffle.out": lambda c, dt: dict(self=c.rnd([1, 1, 2, 4], dt),
                                                    downscale_factor=2),
    "aten::alias_copy.out": lambda c, dt: dict(self=c.rnd([2, 2], dt)),
    "aten::detach_copy.out": lambda c, dt: dict(self=c.rnd([2, 2], dt)),
    "aten::lift_fresh_copy.out": lambda c, dt: dict(self=c.rnd([2, 2], dt)),
    "aten::fill.Scalar_out": lambda c, dt: dict(self=c.rnd([2, 2], dt), value=1),
    "aten::masked_fill.Scalar_out": lambda c, dt: dict(self=c.rnd([2, 3], dt),
                                                       mask=c.rnd([2, 3], BOOL), value=0),
    "aten::index_put.out": lambda c, dt: dict(self=c.rnd([3, 2], dt),
                                              indices=[torch.tensor([2, 0])],
                                              values=c.rnd([2, 2], dt)),
    "aten::scatter_add.out": lambda c, dt: dict(self=c.rnd([2, 3], dt), dim=1,
                                                index=c.randint(0, 3, [2, 4]),
                                                src=c.rnd([2, 4], dt)),
    "aten::embedding.out": lambda c, dt: dict(weight=c.rnd([4, 2], dt),
                                              indices=c.randint(0, 4, [3])),
    "aten::scalar_tensor.out": lambda c, dt: dict(s=1, out_dtypes=[dt]),
    "aten::copy.out": lambda c, dt: dict(self=c.rnd([2, 2], dt), src=c.rnd([2, 2], dt)),
    "aten::as_strided_copy.out": lambda c, dt: dict(self=c.rnd([6], dt), size=[2, 2],
                                                    stride=[2, 1]),
    "aten::prod.out": lambda c, dt: dict(self=c.rnd([2, 2], dt, -1.5, 1.5)),
    "aten::cumsum.out": lambda c, dt: dict(self=c.rnd([2, 3], dt), dim=0),
    "aten::var.correction_out": lambda c, dt: dict(self=c.rnd([2, 4], dt), dim=[1]),
    "aten::reflection_pad2d.out": lambda c, dt: dict(self=c.rnd([1, 1, 3, 3], dt),
                                                     padding=[1, 1, 1, 1]),
    "aten::replication_pad2d.out": lambda c, dt: dict(self=c.rnd([1, 1, 3, 3], dt),
                                                      padding=[1, 1, 1, 1]),
}


def _wrap(key, base_fn):
    def run(c):
        base_fn(c)
        for dt in ALL:
            name = "sweep_%s" % short(dt)
            if name in c.names:
                continue
            c.case(name, optional=True, **SWEEPS[key](c, dt))
    return run


def install():
    for key in SWEEPS:
        fn, tol = SPECS[key]
        SPECS[key] = (_wrap(key, fn), tol)


install()
