"""Writes kernels/test/cases_fast_paths/*.case: PyTorch references at the shapes the portable
kernels' vectorised fast paths special-case (depthwise conv 3x3/5x5/7x7 at stride 1 and 2,
row- and channel-vectorised, tiny planes; grouped convs on planes of <= 16 outputs and 1x1
convs on tiny planes (the GEMM's few-columns dot products, eight rows at a time for one
column); mm with a transposed B read in place; mean over trailing dims; softmax, layer_norm
and the exp-based activations at lengths that leave vector tails). Same format and harness as kernels/test/cases, kept in
its own directory so the main generator's files are untouched.

Run inside the torch chroot:
  refgen/torch_env/run.sh trixie refgen/kernel_cases/fast_path_cases.py
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import torch  # noqa: E402

import casegen  # noqa: E402
from casegen import F32  # noqa: E402

REPO = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
OUT = os.path.join(REPO, "kernels", "test", "cases_fast_paths")


def depthwise(c):
    # (channels, h, w, k, stride, padding, channels_last, bias)
    shapes = [
        (8, 16, 16, 3, 1, 1, False, True),    # rows path, stride 1, whole vectors
        (6, 13, 11, 3, 1, 1, False, True),    # rows path, vector tails
        (5, 17, 19, 3, 2, 1, False, True),    # rows path, stride 2, odd sizes
        (4, 24, 24, 5, 1, 2, False, True),    # 5x5 stride 1
        (7, 23, 21, 5, 2, 2, False, False),   # 5x5 stride 2, no bias
        (3, 20, 18, 7, 1, 3, False, True),    # 7x7
        (3, 15, 15, 3, 1, 0, False, True),    # no padding
        (11, 4, 4, 3, 1, 1, False, True),     # channel path: 4x4, partial channel group
        (20, 2, 2, 3, 1, 1, False, True),     # 2x2 planes
        (9, 1, 1, 3, 1, 1, False, True),      # 1x1 planes
        (13, 7, 7, 5, 1, 2, False, True),     # 7x7 planes, 5x5 kernel
        (10, 8, 8, 3, 2, 1, False, True),     # stride 2 onto 4x4
        (17, 5, 6, 5, 2, 2, False, True),     # 5x5 stride 2 onto 3x3
        (12, 9, 9, 3, 1, 1, True, True),      # channels-last input and output
        (16, 14, 14, 3, 2, 1, True, True),    # channels-last, stride 2
    ]
    for (ch, h, w, k, s, p, cl, has_bias) in shapes:
        x = c.rnd([2 if ch < 6 else 1, ch, h, w])
        wt = c.rnd([ch, 1, k, k], F32, -0.5, 0.5)
        if cl:
            x, wt = c.cl(x), c.cl(wt)
        b = c.rnd([ch]) if has_bias else None
        name = "dw%dx%d_s%d_p%d_%dch_%dx%d%s%s" % (k, k, s, p, ch, h, w, "_cl" if cl else "",
                                                   "" if has_bias else "_nobias")
        c.case(name, input=x, weight=wt, bias=b, stride=[s, s], padding=[p, p], dilation=[1, 1],
               transposed=False, output_padding=[0, 0], groups=ch)
    # Special values through the fast paths: NaN and infinities in a 4x4 plane.
    sp = c.special(F32)
    x = torch.cat([sp, sp[:2]]).reshape(1, 1, 4, 4).repeat(1, 3, 1, 1)
    c.case("dw3x3_special_values", input=x, weight=c.rnd([3, 1, 3, 3], F32, -0.5, 0.5),
           bias=c.rnd([3]), stride=[1, 1], padding=[1, 1], dilation=[1, 1], transposed=False,
           output_padding=[0, 0], groups=3)


def grouped(c):
    """Grouped (not depthwise) convs on planes of <= 16 outputs (ops/conv_small.cc), a few
    just above it (conv_padded / im2col GEMM), and dense 1x1 convs on 4x4, 2x2 and 1x1
    planes (the GEMM's few-columns path)."""
    # (c_in, c_out, groups, h, w, k, stride, padding, dilation, batch, bias, channels_last)
    shapes = [
        (64, 64, 4, 4, 4, 3, 1, 1, 1, 1, True, False),    # RegNet-like, 16 outputs
        (48, 48, 3, 2, 2, 3, 1, 1, 1, 1, True, False),    # 2x2 plane
        (32, 48, 2, 8, 8, 3, 2, 1, 1, 1, True, False),    # stride 2 onto 4x4, c_out != c_in
        (24, 12, 3, 3, 5, 3, 1, 1, 1, 2, False, False),   # 3x5 plane, batch 2, no bias
        (16, 32, 8, 1, 1, 3, 1, 1, 1, 1, True, False),    # 1x1 plane, 2 inputs per group
        (30, 30, 5, 9, 9, 3, 2, 0, 1, 1, True, False),    # no padding onto 4x4
        (12, 18, 3, 5, 5, 3, 1, 2, 2, 1, True, False),    # dilation 2
        (12, 18, 3, 3, 3, 1, 1, 0, 1, 1, True, False),    # grouped 1x1
        (20, 20, 2, 4, 4, 3, 1, 1, 1, 1, True, True),     # channels-last: general path
        (20, 20, 2, 6, 6, 3, 1, 1, 1, 1, True, False),    # 36 outputs: general path
        (96, 40, 1, 1, 1, 1, 1, 0, 1, 1, True, False),    # dense 1x1 on 1x1: 8-row blocks
        (37, 15, 1, 1, 1, 1, 1, 0, 1, 2, True, False),    # 8 + 7 rows, depth tail, batch 2
        (40, 24, 1, 2, 2, 1, 1, 0, 1, 1, True, False),    # dense 1x1 on 2x2
        (37, 19, 1, 4, 4, 1, 1, 0, 1, 1, False, False),   # dense 1x1 on 4x4, tails
    ]
    for (ci, co, g, h, w, k, s, p, d, n, has_bias, cl) in shapes:
        x = c.rnd([n, ci, h, w])
        wt = c.rnd([co, ci // g, k, k], F32, -0.5, 0.5)
        if cl:
            x, wt = c.cl(x), c.cl(wt)
        b = c.rnd([co]) if has_bias else None
        name = "g%d_%dx%d_s%d_p%d_d%d_%dto%d_%dx%d_n%d%s%s" % (
            g, k, k, s, p, d, ci, co, h, w, n, "_cl" if cl else "", "" if has_bias else "_nobias")
        c.case(name, input=x, weight=wt, bias=b, stride=[s, s], padding=[p, p], dilation=[d, d],
               transposed=False, output_padding=[0, 0], groups=g)
    # Special values through the grouped small-plane path.
    sp = c.special(F32)
    x = torch.cat([sp, sp[:2]]).reshape(1, 1, 4, 4).repeat(1, 8, 1, 1)
    c.case("g2_3x3_special_values", input=x, weight=c.rnd([8, 4, 3, 3], F32, -0.5, 0.5),
           bias=c.rnd([8]), stride=[1, 1], padding=[1, 1], dilation=[1, 1], transposed=False,
           output_padding=[0, 0], groups=2)


def conv(c):
    depthwise(c)
    grouped(c)


def mm(c):
    # B transposed (column j is k contiguous floats): read in place by the few-columns path.
    c.case("f32_bt_in_place_5x40x9", self=c.rnd([5, 40]), mat2=c.rnd([9, 40]).t())
    c.case("f32_bt_in_place_3x17x1", self=c.rnd([3, 17]), mat2=c.rnd([1, 17]).t())


def mean(c):
    # Global average pools of squeeze-excite blocks: trailing dims of a contiguous tensor.
    for (n, ch, h, w) in [(1, 16, 7, 7), (2, 24, 4, 4), (1, 40, 1, 1), (1, 3, 2, 9)]:
        c.case("f32_hw_%dx%dx%dx%d" % (n, ch, h, w), self=c.rnd([n, ch, h, w]), dim=[-1, -2],
               keepdim=True)
    c.case("f32_last_dim_no_keepdim", self=c.rnd([5, 33]), dim=[1], keepdim=False)


def max_pool(c):
    # Rows of in-bounds windows at once (ops/pool.cc): GoogLeNet's 3x3 stride-1 pad-1 pools
    # and stride-2 ceil_mode pools, edges, dilation, ties and NaN.
    for (ch, h, w, k, s, p, d, ceil) in [(3, 9, 11, 3, 1, 1, 1, False), (2, 15, 15, 3, 2, 0, 1, True),
                                         (2, 8, 13, 2, 2, 0, 1, False), (2, 10, 9, 3, 2, 1, 1, True),
                                         (1, 12, 12, 3, 1, 1, 2, False), (4, 3, 3, 3, 1, 1, 1, False)]:
        c.case("f32_k%d_s%d_p%d_d%d_%s_%dx%d" % (k, s, p, d, "ceil" if ceil else "floor", h, w),
               self=c.rnd([1, ch, h, w]), kernel_size=[k, k], stride=[s, s], padding=[p, p],
               dilation=[d, d], ceil_mode=ceil)
    ties = torch.tensor([1.0, 2.0, 2.0, 1.0] * 9).reshape(1, 1, 6, 6)
    c.case("f32_ties", self=ties, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1],
           dilation=[1, 1], ceil_mode=False)
    sp = c.special(F32)
    x = torch.cat([sp, sp[:11]]).reshape(1, 1, 5, 5)
    c.case("f32_special_values", self=x, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1],
           dilation=[1, 1], ceil_mode=False)


def softmax(c):
    for n in [1, 3, 7, 8, 9, 17, 100, 1000]:
        c.case("f32_len%d" % n, self=c.rnd([3, n], F32, -20, 20), dim=1, half_to_float=False)
    c.case("f32_large_range", self=c.rnd([2, 37], F32, -200, 200), dim=1, half_to_float=False)
    c.case("f32_dim0_strided", self=c.rnd([19, 5]), dim=0, half_to_float=False)
    sp = c.special(F32)
    c.case("f32_special_rows", self=torch.stack([sp[1:12], sp[2:13], sp[3:14]]), dim=1,
           half_to_float=False)
    c.case("f32_neg_inf_row", self=torch.full([2, 9], -float("inf")), dim=1, half_to_float=False)


def layer_norm(c):
    for n in [1, 5, 8, 13, 32, 100, 768]:
        c.case("f32_len%d" % n, input=c.rnd([3, n], F32, -4, 4), normalized_shape=[n],
               weight=c.rnd([n]), bias=c.rnd([n]), eps=1e-5)
    c.case("f32_offset_mean", input=c.rnd([4, 64], F32, 99, 101), normalized_shape=[64],
           weight=None, bias=None, eps=1e-5)
    c.case("f32_weight_only", input=c.rnd([2, 3, 12]), normalized_shape=[3, 12],
           weight=c.rnd([3, 12]), bias=None, eps=1e-6)


def unary(c, lo=-30.0, hi=30.0):
    for n in [1, 7, 8, 9, 31, 1000]:
        c.case("f32_len%d" % n, self=c.rnd([n], F32, lo, hi))
    c.case("f32_wide", self=c.rnd([64], F32, -120, 120))
    c.case("f32_special", self=c.special(F32))


SPECS = [
    ("aten::convolution.out", "reduce", conv),
    ("aten::mm.out", "reduce", mm),
    ("aten::mean.out", "reduce", mean),
    ("aten::max_pool2d_with_indices.out", "exact", max_pool),
    ("aten::_softmax.out", "reduce", softmax),
    ("aten::_log_softmax.out", "reduce", softmax),
    ("aten::native_layer_norm.out", "reduce", layer_norm),
    ("aten::sigmoid.out", "elementwise", unary),
    ("aten::silu.out", "elementwise", unary),
    ("aten::exp.out", "elementwise", lambda c: unary(c, -100.0, 88.0)),
    ("aten::hardswish.out", "elementwise", lambda c: unary(c, -8.0, 8.0)),
    ("aten::hardsigmoid.out", "elementwise", lambda c: unary(c, -8.0, 8.0)),
]


def gelu(c):
    for n in [1, 7, 9, 1000]:
        c.case("f32_len%d" % n, self=c.rnd([n], F32, -8, 8), approximate="none")
    c.case("f32_special", self=c.special(F32), approximate="none")


SPECS.append(("aten::gelu.out", "elementwise", gelu))


def main():
    torch.set_num_threads(1)
    os.makedirs(OUT, exist_ok=True)
    for key, tol, fn in SPECS:
        c = casegen.OpCases(key, tol=tol)
        fn(c)
        data = c.encode(torch.__version__)
        ns, rest = key.split("::")
        name = "%s__%s.case" % (ns, rest)
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(data)
        print("%-40s %3d cases %7d bytes" % (key, len(c.cases), len(data)))


if __name__ == "__main__":
    main()
