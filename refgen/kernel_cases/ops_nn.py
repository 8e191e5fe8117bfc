"""Case specs for matrix products, convolution, normalisation, pooling and upsampling."""
import torch

from families import BF16, F16, F32, F64, FLOATS, I32, I64
from registry import op
from casegen import short


@op("aten::mm.out", tol="reduce")
def mm(c):
    for dt in FLOATS:
        c.case("%s_3x4_4x5" % short(dt), self=c.rnd([3, 4], dt), mat2=c.rnd([4, 5], dt))
    c.case("i64_3x4_4x2", self=c.rnd([3, 4], I64), mat2=c.rnd([4, 2], I64), optional=True)
    c.case("f32_1x1", self=c.rnd([1, 1]), mat2=c.rnd([1, 1]))
    c.case("f32_inner_0", self=c.rnd([3, 0]), mat2=c.rnd([0, 2]))
    c.case("f32_rows_0", self=c.rnd([0, 4]), mat2=c.rnd([4, 2]))
    c.case("f32_transposed_copy_input", self=c.rnd([4, 3]).t().contiguous(), mat2=c.rnd([4, 5]))
    c.case("f32_special_values", self=c.special(F32)[:12].reshape(3, 4), mat2=c.rnd([4, 2]))
    c.case("f32_shape_mismatch_error", self=c.rnd([3, 4]), mat2=c.rnd([5, 2]), expect=True)
    c.case("dtype_mismatch_error", self=c.rnd([3, 4]), mat2=c.rnd([4, 2], F64), expect=True)
    c.case("f32_16x32_32x8", self=c.rnd([16, 32]), mat2=c.rnd([32, 8]))
    c.case("f32_33x65_65x17_odd", self=c.rnd([33, 65]), mat2=c.rnd([65, 17]))


@op("aten::bmm.out", tol="reduce")
def bmm(c):
    for dt in FLOATS:
        c.case("%s_2x3x4_2x4x5" % short(dt), self=c.rnd([2, 3, 4], dt), mat2=c.rnd([2, 4, 5], dt))
    c.case("i32_2x2x3_2x3x2", self=c.rnd([2, 2, 3], I32), mat2=c.rnd([2, 3, 2], I32), optional=True)
    c.case("f32_batch_0", self=c.rnd([0, 3, 4]), mat2=c.rnd([0, 4, 5]))
    c.case("f32_inner_0", self=c.rnd([2, 3, 0]), mat2=c.rnd([2, 0, 5]))
    c.case("f32_batch_mismatch_error", self=c.rnd([2, 3, 4]), mat2=c.rnd([3, 4, 5]), expect=True)


@op("aten::addmm.out", tol="reduce")
def addmm(c):
    for dt in FLOATS:
        c.case("%s_bias_row" % short(dt), self=c.rnd([5], dt), mat1=c.rnd([3, 4], dt),
               mat2=c.rnd([4, 5], dt))
    c.case("f32_bias_full", self=c.rnd([3, 5]), mat1=c.rnd([3, 4]), mat2=c.rnd([4, 5]))
    c.case("f32_bias_column", self=c.rnd([3, 1]), mat1=c.rnd([3, 4]), mat2=c.rnd([4, 5]))
    c.case("f32_bias_rank0", self=c.rnd([]), mat1=c.rnd([3, 4]), mat2=c.rnd([4, 5]))
    c.case("f32_beta_alpha", self=c.rnd([5]), mat1=c.rnd([3, 4]), mat2=c.rnd([4, 5]), beta=0.5,
           alpha=2.0)
    c.case("f32_beta_0_ignores_nan", self=c.special(F32)[:5], mat1=c.rnd([3, 4]),
           mat2=c.rnd([4, 5]), beta=0)
    c.case("f32_linear_transposed_weight", self=c.rnd([6]), mat1=c.rnd([2, 8]),
           mat2=c.rnd([6, 8]).t().contiguous())
    c.case("f32_inner_0", self=c.rnd([5]), mat1=c.rnd([3, 0]), mat2=c.rnd([0, 5]))
    c.case("i64_ints", self=c.rnd([2], I64), mat1=c.rnd([3, 4], I64), mat2=c.rnd([4, 2], I64),
           optional=True)


def conv(c, name, x, w, b=None, stride=(1, 1), padding=(0, 0), dilation=(1, 1),
         transposed=False, output_padding=(0, 0), groups=1, **more):
    n = len(stride)
    c.case(name, input=x, weight=w, bias=b, stride=list(stride), padding=list(padding),
           dilation=list(dilation), transposed=transposed, output_padding=list(output_padding[:n]),
           groups=groups, **more)


@op("aten::convolution.out", tol="reduce")
def convolution(c):
    r = c.rnd
    for dt in FLOATS:
        conv(c, "%s_basic_3x3" % short(dt), r([1, 2, 5, 5], dt), r([3, 2, 3, 3], dt), r([3], dt))
    conv(c, "f32_no_bias", r([2, 2, 4, 4]), r([3, 2, 3, 3]))
    conv(c, "f32_stride2_pad1", r([1, 3, 7, 6]), r([4, 3, 3, 3]), r([4]), stride=(2, 2),
         padding=(1, 1))
    conv(c, "f32_asymmetric_stride_pad", r([1, 2, 6, 7]), r([2, 2, 2, 3]), r([2]), stride=(1, 2),
         padding=(2, 0))
    conv(c, "f32_dilation2", r([1, 2, 7, 7]), r([2, 2, 3, 3]), r([2]), dilation=(2, 2),
         padding=(2, 2))
    conv(c, "f32_groups2", r([1, 4, 5, 5]), r([6, 2, 3, 3]), r([6]), groups=2, padding=(1, 1))
    conv(c, "f32_depthwise", r([1, 3, 5, 5]), r([3, 1, 3, 3]), r([3]), groups=3, padding=(1, 1))
    conv(c, "f32_depthwise_multiplier2", r([1, 2, 5, 5]), r([4, 1, 3, 3]), r([4]), groups=2)
    conv(c, "f32_pointwise_1x1", r([2, 4, 3, 3]), r([5, 4, 1, 1]), r([5]))
    conv(c, "f32_channels_last", c.cl(r([1, 3, 5, 5])), c.cl(r([4, 3, 3, 3])), r([4]),
         padding=(1, 1))
    conv(c, "f32_channels_last_depthwise", c.cl(r([1, 4, 5, 5])), c.cl(r([4, 1, 3, 3])), r([4]),
         groups=4, stride=(2, 2), padding=(1, 1))
    conv(c, "f32_kernel_larger_than_input_error", r([1, 1, 2, 2]), r([1, 1, 3, 3]), expect=True)
    conv(c, "f32_special_values_input", c.special(F32)[:9].reshape(1, 1, 3, 3),
         r([1, 1, 2, 2]), r([1]))
    conv(c, "f32_batch_0", r([0, 2, 4, 4]), r([3, 2, 3, 3]), r([3]), optional=True)
    conv(c, "f32_conv1d", r([2, 3, 9]), r([4, 3, 3]), r([4]), stride=(2,), padding=(1,),
         dilation=(1,), output_padding=(0,))
    conv(c, "f32_conv1d_groups3", r([1, 3, 8]), r([6, 1, 2]), None, stride=(1,), padding=(0,),
         dilation=(2,), groups=3)
    conv(c, "f32_transposed_basic", r([1, 2, 3, 3]), r([2, 3, 3, 3]), r([3]), transposed=True)
    conv(c, "f32_transposed_stride2_pad1_outpad1", r([1, 2, 3, 4]), r([2, 3, 3, 3]), r([3]),
         transposed=True, stride=(2, 2), padding=(1, 1), output_padding=(1, 1))
    conv(c, "f32_transposed_groups2", r([1, 4, 3, 3]), r([4, 1, 2, 2]), r([2]), transposed=True,
         groups=2, stride=(2, 2))
    conv(c, "f32_transposed_dilation2", r([1, 2, 3, 3]), r([2, 2, 3, 3]), None, transposed=True,
         dilation=(2, 2))
    conv(c, "f32_transposed_1d", r([1, 2, 5]), r([2, 3, 3]), r([3]), transposed=True,
         stride=(2,), padding=(1,), dilation=(1,), output_padding=(1,))
    conv(c, "f32_16ch_to_32ch_3x3", r([1, 16, 8, 8]), r([32, 16, 3, 3], F32, -0.3, 0.3), r([32]),
         padding=(1, 1))
    conv(c, "f32_32ch_depthwise_stride2", c.cl(r([1, 32, 9, 9])), c.cl(r([32, 1, 3, 3])),
         r([32]), stride=(2, 2), padding=(1, 1), groups=32)
    # 3-D (video): R3D's stem (k 3x7x7-like, stride (1, 2, 2)), R(2+1)D's split (1,k,k)/(k,1,1)
    # kernels, groups, a transposed 3-D conv, float64 and a channels-last-3d input
    conv(c, "f32_conv3d_stem", r([1, 3, 4, 9, 9]), r([4, 3, 3, 5, 5], F32, -0.3, 0.3), r([4]),
         stride=(1, 2, 2), padding=(1, 2, 2), dilation=(1, 1, 1), output_padding=(0, 0, 0))
    conv(c, "f32_conv3d_2plus1d", r([2, 4, 3, 5, 5]), r([6, 4, 1, 3, 3]), None,
         stride=(1, 1, 1), padding=(0, 1, 1), dilation=(1, 1, 1), output_padding=(0, 0, 0))
    conv(c, "f64_conv3d_temporal_groups2", r([1, 4, 5, 3, 3], F64), r([4, 2, 3, 1, 1], F64),
         r([4], F64), stride=(2, 1, 1), padding=(1, 0, 0), dilation=(1, 1, 1),
         output_padding=(0, 0, 0), groups=2)
    conv(c, "f32_conv3d_dilated_channels_last",
         r([1, 2, 5, 5, 5]).contiguous(memory_format=torch.channels_last_3d), r([3, 2, 2, 2, 2]),
         r([3]), stride=(1, 1, 1), padding=(1, 1, 1), dilation=(2, 2, 2),
         output_padding=(0, 0, 0))
    conv(c, "f32_conv3d_transposed", r([1, 2, 2, 3, 3]), r([2, 3, 2, 3, 3]), r([3]),
         transposed=True, stride=(2, 2, 2), padding=(0, 1, 1), dilation=(1, 1, 1),
         output_padding=(1, 1, 0))
    conv(c, "f64_stride2_groups2", r([1, 4, 6, 6], F64), r([4, 2, 3, 3], F64), r([4], F64),
         stride=(2, 2), groups=2)
    # Shape classes of the float32 GEMM paths (kernels/portable/ops/conv_padded.cc, im2col):
    # padded-input path with more than 32 output channels and wide rows, depth over one
    # 256-deep block (288), tile edges (40 channels, 20 columns);
    conv(c, "f32_padded_40ch_k288_wide", r([1, 32, 6, 20], F32, -0.5, 0.5),
         r([40, 32, 3, 3], F32, -0.2, 0.2), r([40]), padding=(1, 1))
    # the same path per group and per image, no bias, 5x5 kernel with padding 2;
    conv(c, "f32_padded_groups3_batch2_5x5", r([2, 6, 7, 9]), r([9, 2, 5, 5]), None,
         padding=(2, 2), groups=3)
    # stride 2 (phase-split padded input) with depth 288 and 20 output channels;
    conv(c, "f32_stride2_k288_20ch", r([1, 32, 9, 11], F32, -0.5, 0.5),
         r([20, 32, 3, 3], F32, -0.2, 0.2), r([20]), stride=(2, 2), padding=(1, 1))
    # im2col packed in the GEMM (over 32 output channels, narrow rows), plain and strided.
    conv(c, "f32_im2col_36ch_5x5", r([1, 8, 5, 5]), r([36, 8, 3, 3], F32, -0.3, 0.3), r([36]),
         padding=(1, 1))
    conv(c, "f32_im2col_36ch_stride2_dilation2", r([2, 8, 9, 8]), r([36, 8, 3, 3], F32, -0.3, 0.3),
         r([36]), stride=(2, 2), padding=(2, 1), dilation=(2, 2))


@op("aten::_native_batch_norm_legit_no_training.out", tol="reduce")
def bn_no_training(c):
    for dt in [F32, F64]:
        c.case("%s_nchw" % short(dt), input=c.rnd([2, 3, 4, 4], dt), weight=c.rnd([3], dt),
               bias=c.rnd([3], dt), running_mean=c.rnd([3], dt), running_var=c.pos([3], dt),
               momentum=0.1, eps=1e-5)
    c.case("f32_no_affine", input=c.rnd([1, 3, 2, 2]), weight=None, bias=None,
           running_mean=c.rnd([3]), running_var=c.pos([3]), momentum=0.1, eps=1e-3)
    c.case("f32_2d_input", input=c.rnd([4, 5]), weight=c.rnd([5]), bias=c.rnd([5]),
           running_mean=c.rnd([5]), running_var=c.pos([5]), momentum=0.1, eps=1e-5)
    c.case("f32_3d_input", input=c.rnd([2, 3, 5]), weight=c.rnd([3]), bias=c.rnd([3]),
           running_mean=c.rnd([3]), running_var=c.pos([3]), momentum=0.1, eps=1e-5)
    c.case("f32_channels_last", input=c.cl(c.rnd([2, 3, 3, 2])), weight=c.rnd([3]),
           bias=c.rnd([3]), running_mean=c.rnd([3]), running_var=c.pos([3]), momentum=0.1,
           eps=1e-5)
    c.case("f16_nchw", input=c.rnd([1, 3, 2, 2], F16), weight=c.rnd([3], F16),
           bias=c.rnd([3], F16), running_mean=c.rnd([3], F16), running_var=c.pos([3], F16),
           momentum=0.1, eps=1e-5, optional=True)
    c.case("f32_zero_var_eps", input=c.rnd([1, 2, 2, 2]), weight=c.rnd([2]), bias=c.rnd([2]),
           running_mean=c.rnd([2]), running_var=c.rnd([2]) * 0, momentum=0.1, eps=1e-2)


@op("aten::native_layer_norm.out", tol="reduce")
def layer_norm(c):
    for dt in FLOATS:
        c.case("%s_last_dim" % short(dt), input=c.rnd([2, 3, 8], dt), normalized_shape=[8],
               weight=c.rnd([8], dt), bias=c.rnd([8], dt), eps=1e-5, optional=True)
    c.case("f32_last_two_dims", input=c.rnd([2, 3, 4]), normalized_shape=[3, 4],
           weight=c.rnd([3, 4]), bias=c.rnd([3, 4]), eps=1e-5)
    c.case("f32_no_affine", input=c.rnd([4, 6]), normalized_shape=[6], weight=None, bias=None,
           eps=1e-6)
    c.case("f32_weight_only", input=c.rnd([4, 6]), normalized_shape=[6], weight=c.rnd([6]),
           bias=None, eps=1e-5)
    c.case("f32_constant_rows", input=c.rnd([3, 1]).expand(3, 5).contiguous(),
           normalized_shape=[5], weight=c.rnd([5]), bias=c.rnd([5]), eps=1e-5)
    c.case("f32_empty_batch", input=c.rnd([0, 4]), normalized_shape=[4], weight=c.rnd([4]),
           bias=c.rnd([4]), eps=1e-5)
    c.case("f32_nan_and_inf_rows", input=c.special(F32)[:12].reshape(3, 4), normalized_shape=[4],
           weight=c.rnd([4]), bias=c.rnd([4]), eps=1e-5)
    c.case("f32_shape_mismatch_error", input=c.rnd([2, 5]), normalized_shape=[4],
           weight=None, bias=None, eps=1e-5, expect=True)


@op("aten::native_group_norm.out", tol="reduce")
def group_norm(c):
    for dt in [F32, F64, BF16]:
        c.case("%s_4ch_2groups" % short(dt), input=c.rnd([2, 4, 3, 3], dt), weight=c.rnd([4], dt),
               bias=c.rnd([4], dt), N=2, C=4, HxW=9, group=2, eps=1e-5, optional=True)
    c.case("f32_one_group", input=c.rnd([1, 3, 2, 2]), weight=c.rnd([3]), bias=c.rnd([3]),
           N=1, C=3, HxW=4, group=1, eps=1e-5)
    c.case("f32_groups_eq_channels", input=c.rnd([2, 6, 5]), weight=None, bias=None, N=2, C=6,
           HxW=5, group=6, eps=1e-5)
    c.case("f32_3d_input", input=c.rnd([2, 4, 6]), weight=c.rnd([4]), bias=c.rnd([4]), N=2,
           C=4, HxW=6, group=2, eps=1e-3)
    c.case("f32_channels_last", input=c.cl(c.rnd([2, 4, 3, 3])), weight=c.rnd([4]),
           bias=c.rnd([4]), N=2, C=4, HxW=9, group=2, eps=1e-5, optional=True)
    c.case("f32_channels_not_divisible_error", input=c.rnd([1, 3, 2, 2]), weight=None,
           bias=None, N=1, C=3, HxW=4, group=2, eps=1e-5, expect=True)


@op("aten::max_pool2d_with_indices.out", tol="exact")
def max_pool(c):
    for dt in [F32, F64, F16, BF16, I32, I64]:
        c.case("%s_k2" % short(dt), self=c.rnd([1, 2, 4, 4], dt), kernel_size=[2, 2],
               optional=True)
    c.case("f32_k3_s2_p1", self=c.rnd([1, 3, 7, 7]), kernel_size=[3, 3], stride=[2, 2],
           padding=[1, 1])
    c.case("f32_k3_s2_ceil", self=c.rnd([1, 1, 6, 6]), kernel_size=[3, 3], stride=[2, 2],
           ceil_mode=True)
    c.case("f32_dilation2", self=c.rnd([1, 1, 7, 7]), kernel_size=[2, 2], stride=[1, 1],
           dilation=[2, 2])
    c.case("f32_3d_input_chw", self=c.rnd([2, 5, 5]), kernel_size=[2, 3], stride=[1, 2])
    c.case("f32_channels_last", self=c.cl(c.rnd([2, 3, 4, 4])), kernel_size=[2, 2],
           stride=[2, 2])
    c.case("f32_nan_and_inf", self=c.special(F32)[:9].reshape(1, 1, 3, 3), kernel_size=[2, 2],
           stride=[1, 1])
    c.case("f32_padding_too_large_error", self=c.rnd([1, 1, 4, 4]), kernel_size=[2, 2],
           padding=[2, 2], expect=True)


@op("aten::avg_pool2d.out", tol="reduce")
def avg_pool(c):
    for dt in [F32, F64, F16, BF16, I64]:
        c.case("%s_k2" % short(dt), self=c.rnd([1, 2, 4, 4], dt), kernel_size=[2, 2],
               optional=True)
    c.case("f32_k3_s2_p1_include_pad", self=c.rnd([1, 2, 7, 7]), kernel_size=[3, 3],
           stride=[2, 2], padding=[1, 1])
    c.case("f32_k3_s2_p1_exclude_pad", self=c.rnd([1, 2, 7, 7]), kernel_size=[3, 3],
           stride=[2, 2], padding=[1, 1], count_include_pad=False)
    c.case("f32_ceil_mode", self=c.rnd([1, 1, 6, 6]), kernel_size=[3, 3], stride=[2, 2],
           ceil_mode=True)
    c.case("f32_ceil_mode_pad", self=c.rnd([1, 1, 5, 5]), kernel_size=[2, 2], stride=[2, 2],
           padding=[1, 1], ceil_mode=True, count_include_pad=True)
    c.case("f32_divisor_override", self=c.rnd([1, 2, 4, 4]), kernel_size=[2, 2],
           divisor_override=3)
    c.case("f32_3d_input", self=c.rnd([3, 4, 6]), kernel_size=[2, 3], stride=[2, 3])
    c.case("f32_channels_last", self=c.cl(c.rnd([2, 3, 4, 4])), kernel_size=[2, 2])
    c.case("f32_nan_and_inf", self=c.special(F32)[:9].reshape(1, 1, 3, 3), kernel_size=[2, 2],
           stride=[1, 1])


@op("aten::_adaptive_avg_pool2d.out", tol="reduce")
def adaptive_avg_pool(c):
    for dt in [F32, F64, F16, BF16]:
        c.case("%s_to_1x1" % short(dt), self=c.rnd([2, 3, 4, 4], dt), output_size=[1, 1],
               optional=True)
    c.case("f32_to_2x2_even", self=c.rnd([1, 2, 4, 6]), output_size=[2, 2])
    c.case("f32_to_3x2_uneven", self=c.rnd([1, 2, 5, 7]), output_size=[3, 2])
    c.case("f32_upsample_7x7", self=c.rnd([1, 1, 3, 3]), output_size=[7, 7])
    c.case("f32_3d_input", self=c.rnd([3, 5, 5]), output_size=[2, 2])
    c.case("f32_channels_last", self=c.cl(c.rnd([1, 3, 4, 4])), output_size=[2, 2])


@op("aten::upsample_nearest2d.vec_out", tol="exact")
def upsample_nearest(c):
    for dt in [F32, F64, F16, I64]:
        c.case("%s_size_4x6" % short(dt), input=c.rnd([1, 2, 2, 3], dt), output_size=[4, 6],
               scale_factors=None, optional=True)
    c.case("f32_scale_2", input=c.rnd([1, 1, 3, 3]), output_size=None, scale_factors=[2.0, 2.0])
    c.case("f32_scale_1p5_2p5", input=c.rnd([1, 2, 2, 2]), output_size=None,
           scale_factors=[1.5, 2.5])
    c.case("f32_downsample", input=c.rnd([1, 1, 5, 7]), output_size=[2, 3], scale_factors=None)
    c.case("f32_channels_last", input=c.cl(c.rnd([1, 3, 2, 2])), output_size=[3, 5],
           scale_factors=None)
    c.case("both_none_error", input=c.rnd([1, 1, 2, 2]), output_size=None, scale_factors=None,
           expect=True)


@op("aten::upsample_bilinear2d.vec_out", tol="reduce")
def upsample_bilinear(c):
    for ac in [False, True]:
        tag = "align" if ac else "noalign"
        for dt in [F32, F64, F16, BF16]:
            c.case("%s_%s_size_4x6" % (tag, short(dt)), input=c.rnd([1, 2, 2, 3], dt),
                   output_size=[4, 6], align_corners=ac, scale_factors=None, optional=True)
        c.case("%s_scale_2" % tag, input=c.rnd([1, 1, 3, 3]), output_size=None,
               align_corners=ac, scale_factors=[2.0, 2.0])
        c.case("%s_scale_1p5_0p5" % tag, input=c.rnd([1, 2, 4, 4]), output_size=None,
               align_corners=ac, scale_factors=[1.5, 0.5])
        c.case("%s_downsample" % tag, input=c.rnd([1, 1, 5, 7]), output_size=[2, 3],
               align_corners=ac, scale_factors=None)
        c.case("%s_channels_last" % tag, input=c.cl(c.rnd([1, 3, 2, 2])), output_size=[3, 5],
               align_corners=ac, scale_factors=None)
    # Output rows wider than the kernel's 256-column chunk, batch 2 (chunked column tables).
    c.case("noalign_batch2_wide_300", input=c.rnd([2, 2, 3, 150]), output_size=[5, 300],
           align_corners=False, scale_factors=None)


@op("aten::_upsample_bilinear2d_aa.out", tol="reduce")
def upsample_bilinear_aa(c):
    for ac in [False, True]:
        tag = "align" if ac else "noalign"
        for dt in [F32, F64]:
            c.case("%s_%s_down_8x6_to_5x3" % (tag, short(dt)), self=c.rnd([1, 2, 8, 6], dt),
                   output_size=[5, 3], align_corners=ac)
        c.case("%s_up_3x4_to_7x9" % tag, self=c.rnd([1, 1, 3, 4]), output_size=[7, 9],
               align_corners=ac)
        c.case("%s_down_x4_16x16_to_4x4" % tag, self=c.rnd([2, 1, 16, 16]), output_size=[4, 4],
               align_corners=ac)
        c.case("%s_mixed_6x10_to_9x3" % tag, self=c.rnd([1, 2, 6, 10]), output_size=[9, 3],
               align_corners=ac)
        c.case("%s_scales_given" % tag, self=c.rnd([1, 1, 9, 9]), output_size=[4, 4],
               align_corners=ac, scales_h=0.45, scales_w=0.45)
        c.case("%s_channels_last" % tag, self=c.cl(c.rnd([1, 3, 7, 5])), output_size=[3, 2],
               align_corners=ac)
    c.case("noalign_same_size", self=c.rnd([1, 1, 4, 5]), output_size=[4, 5], align_corners=False)
    c.case("noalign_to_1x1", self=c.rnd([1, 2, 5, 7]), output_size=[1, 1], align_corners=False)


@op("aten::grid_sampler_2d.out", tol="reduce")
def grid_sampler_2d(c):
    import torch
    for mode, mname in [(0, "bilinear"), (1, "nearest")]:
        for pad, pname in [(0, "zeros"), (1, "border"), (2, "reflection")]:
            for ac in [False, True]:
                tag = "%s_%s_%s" % (mname, pname, "align" if ac else "noalign")
                # grid points mostly in [-1.3, 1.3]: some outside, to exercise the padding
                c.case(tag, input=c.rnd([2, 3, 5, 4]), grid=c.rnd([2, 3, 6, 2], lo=-1.3, hi=1.3),
                       interpolation_mode=mode, padding_mode=pad, align_corners=ac)
        c.case("%s_far_outside_reflection" % mname, input=c.rnd([1, 1, 4, 4]),
               grid=c.rnd([1, 2, 3, 2], lo=-4.0, hi=4.0), interpolation_mode=mode, padding_mode=2,
               align_corners=False)
    c.case("bilinear_f64", input=c.rnd([1, 2, 3, 3], F64), grid=c.rnd([1, 2, 2, 2], F64, lo=-1, hi=1),
           interpolation_mode=0, padding_mode=0, align_corners=False)
    c.case("bilinear_channels_last", input=c.cl(c.rnd([1, 3, 4, 5])),
           grid=c.rnd([1, 3, 3, 2], lo=-1, hi=1), interpolation_mode=0, padding_mode=1,
           align_corners=True)
    c.case("bilinear_exact_corners", input=c.rnd([1, 1, 3, 3]),
           grid=torch.tensor([[[[-1.0, -1.0], [1.0, 1.0]], [[0.0, 0.0], [1.0, -1.0]]]]),
           interpolation_mode=0, padding_mode=0, align_corners=True)


@op("aten::col2im.out", tol="reduce")
def col2im(c):
    # nn.Fold: overlapping 3x3 blocks (stride 1) sum; stride 2 + padding + dilation; unbatched
    c.case("f32_overlap", self=c.rnd([2, 2 * 9, 16]), output_size=[6, 6], kernel_size=[3, 3],
           dilation=[1, 1], padding=[0, 0], stride=[1, 1])
    c.case("f32_stride_pad_dilation", self=c.rnd([1, 3 * 4, 12]), output_size=[5, 6],
           kernel_size=[2, 2], dilation=[2, 1], padding=[1, 1], stride=[2, 2])
    c.case("f32_unbatched", self=c.rnd([4, 6]), output_size=[3, 4], kernel_size=[2, 2],
           dilation=[1, 1], padding=[0, 0], stride=[1, 1])


@op("aten::im2col.out", tol="exact")
def im2col(c):
    c.case("f32_3x3", self=c.rnd([2, 2, 5, 5]), kernel_size=[3, 3], dilation=[1, 1],
           padding=[1, 1], stride=[2, 2])
    c.case("f64_dilated_unbatched", self=c.rnd([3, 6, 5], F64), kernel_size=[2, 3],
           dilation=[2, 1], padding=[0, 1], stride=[1, 2])


@op("aten::_adaptive_avg_pool3d.out", tol="reduce")
def adaptive_avg_pool3d(c):
    c.case("f32_to_1x1x1", self=c.rnd([2, 3, 4, 4, 4]), output_size=[1, 1, 1])
    c.case("f32_uneven", self=c.rnd([1, 2, 5, 7, 3]), output_size=[2, 3, 2])
    c.case("f64_upsample_4d_input", self=c.rnd([2, 2, 3, 3], F64), output_size=[3, 4, 5])


@op("aten::max_pool3d_with_indices.out", tol="exact")
def max_pool3d(c):
    # video nets: R3D's stem pool (k 3, s 2, p 1) and the (1, 2, 2) temporal-preserving pool
    for dt in [F32, F64, F16, BF16, I32, I64]:
        c.case("%s_k2" % short(dt), self=c.rnd([1, 2, 4, 4, 4], dt), kernel_size=[2, 2, 2],
               optional=True)
    c.case("f32_k3_s2_p1", self=c.rnd([2, 2, 5, 7, 7]), kernel_size=[3, 3, 3],
           stride=[2, 2, 2], padding=[1, 1, 1])
    c.case("f32_k122_temporal", self=c.rnd([1, 3, 3, 6, 6]), kernel_size=[1, 2, 2])
    c.case("f32_ceil_dilation", self=c.rnd([1, 1, 6, 7, 6]), kernel_size=[2, 3, 2],
           stride=[2, 2, 1], dilation=[2, 1, 2], ceil_mode=True)
    c.case("f32_unbatched_cdhw", self=c.rnd([2, 3, 5, 4]), kernel_size=[2], stride=[1])
    c.case("f32_channels_last_3d_input",
           self=c.rnd([2, 3, 4, 4, 4]).contiguous(memory_format=torch.channels_last_3d),
           kernel_size=[2, 2, 2])
    c.case("f32_nan_and_inf", self=c.special(F32)[:8].reshape(1, 1, 2, 2, 2),
           kernel_size=[2, 2, 1], stride=[1, 1, 1])
    c.case("f32_padding_too_large_error", self=c.rnd([1, 1, 4, 4, 4]), kernel_size=[2, 2, 2],
           padding=[2, 2, 2], expect=True)


@op("aten::avg_pool3d.out", tol="reduce")
def avg_pool3d(c):
    for dt in [F32, F64, F16, BF16, I64]:
        c.case("%s_k2" % short(dt), self=c.rnd([1, 2, 4, 4, 4], dt), kernel_size=[2, 2, 2],
               optional=True)
    c.case("f32_k3_s2_p1_include_pad", self=c.rnd([1, 2, 5, 7, 7]), kernel_size=[3, 3, 3],
           stride=[2, 2, 2], padding=[1, 1, 1])
    c.case("f32_k3_s2_p1_exclude_pad", self=c.rnd([1, 2, 5, 7, 7]), kernel_size=[3, 3, 3],
           stride=[2, 2, 2], padding=[1, 1, 1], count_include_pad=False)
    c.case("f32_ceil_mode_pad", self=c.rnd([1, 1, 5, 5, 3]), kernel_size=[2, 2, 2],
           stride=[2, 2, 2], padding=[1, 1, 1], ceil_mode=True)
    c.case("f32_divisor_override", self=c.rnd([1, 2, 4, 4, 2]), kernel_size=[2, 2, 2],
           divisor_override=3)
    c.case("f32_unbatched", self=c.rnd([3, 4, 6, 3]), kernel_size=[2, 3, 1], stride=[2, 3, 1])
    c.case("f32_channels_last_3d_input",
           self=c.rnd([2, 3, 4, 4, 4]).contiguous(memory_format=torch.channels_last_3d),
           kernel_size=[2, 2, 2])
