// The table of portable kernels, by .pte operator name. One line per overload;
// boxed<&fn> adapts each unboxed out-variant function to the boxed ABI.
#include "kernels/portable/register_kernels.h"

#include "kernels/portable/ops/activation.h"
#include "kernels/portable/ops/arith.h"
#include "kernels/portable/ops/compare.h"
#include "kernels/portable/ops/conv.h"
#include "kernels/portable/ops/copy.h"
#include "kernels/portable/ops/index.h"
#include "kernels/portable/ops/join.h"
#include "kernels/portable/ops/matmul.h"
#include "kernels/portable/ops/misc.h"
#include "kernels/portable/ops/norm.h"
#include "kernels/portable/ops/pad.h"
#include "kernels/portable/ops/pool.h"
#include "kernels/portable/ops/quantize.h"
#include "kernels/portable/ops/random.h"
#include "kernels/portable/ops/reduce.h"
#include "kernels/portable/ops/resample.h"
#include "kernels/portable/ops/unary.h"
#include "kernels/portable/ops/upsample.h"
#include "kernels/portable/ops/view.h"
#include "kernels/portable/util/boxing.h"

namespace ember::kernels::portable {

namespace {

using runtime::Kernel;

const Kernel kKernels[] = {
    // arith.h
    {"aten::add.out", boxed<&add_out>},
    {"aten::add.Scalar_out", boxed<&add_scalar_out>},
    {"aten::sub.out", boxed<&sub_out>},
    {"aten::sub.Scalar_out", boxed<&sub_scalar_out>},
    {"aten::rsub.Scalar_out", boxed<&rsub_scalar_out>},
    {"aten::mul.out", boxed<&mul_out>},
    {"aten::mul.Scalar_out", boxed<&mul_scalar_out>},
    {"aten::div.out", boxed<&div_out>},
    {"aten::div.out_mode", boxed<&div_out_mode>},
    {"aten::div.Scalar_out", boxed<&div_scalar_out>},
    {"aten::div.Scalar_mode_out", boxed<&div_scalar_mode_out>},
    {"aten::floor_divide.out", boxed<&floor_divide_out>},
    {"aten::fmod.Tensor_out", boxed<&fmod_tensor_out>},
    {"aten::fmod.Scalar_out", boxed<&fmod_scalar_out>},
    {"aten::remainder.Tensor_out", boxed<&remainder_tensor_out>},
    {"aten::remainder.Scalar_out", boxed<&remainder_scalar_out>},
    {"aten::pow.Tensor_Tensor_out", boxed<&pow_tensor_tensor_out>},
    {"aten::pow.Tensor_Scalar_out", boxed<&pow_tensor_scalar_out>},
    {"aten::pow.Scalar_out", boxed<&pow_scalar_out>},
    {"aten::atan2.out", boxed<&atan2_out>},
    {"aten::maximum.out", boxed<&maximum_out>},
    {"aten::minimum.out", boxed<&minimum_out>},
    // unary.h
    {"aten::acos.out", boxed<&acos_out>},
    {"aten::acosh.out", boxed<&acosh_out>},
    {"aten::asin.out", boxed<&asin_out>},
    {"aten::asinh.out", boxed<&asinh_out>},
    {"aten::atan.out", boxed<&atan_out>},
    {"aten::atanh.out", boxed<&atanh_out>},
    {"aten::cos.out", boxed<&cos_out>},
    {"aten::cosh.out", boxed<&cosh_out>},
    {"aten::erf.out", boxed<&erf_out>},
    {"aten::exp.out", boxed<&exp_out>},
    {"aten::expm1.out", boxed<&expm1_out>},
    {"aten::log.out", boxed<&log_out>},
    {"aten::log10.out", boxed<&log10_out>},
    {"aten::log1p.out", boxed<&log1p_out>},
    {"aten::log2.out", boxed<&log2_out>},
    {"aten::reciprocal.out", boxed<&reciprocal_out>},
    {"aten::rsqrt.out", boxed<&rsqrt_out>},
    {"aten::sigmoid.out", boxed<&sigmoid_out>},
    {"aten::sin.out", boxed<&sin_out>},
    {"aten::sinh.out", boxed<&sinh_out>},
    {"aten::sqrt.out", boxed<&sqrt_out>},
    {"aten::tan.out", boxed<&tan_out>},
    {"aten::tanh.out", boxed<&tanh_out>},
    {"aten::abs.out", boxed<&abs_out>},
    {"aten::neg.out", boxed<&neg_out>},
    {"aten::sign.out", boxed<&sign_out>},
    {"aten::ceil.out", boxed<&ceil_out>},
    {"aten::floor.out", boxed<&floor_out>},
    {"aten::round.out", boxed<&round_out>},
    {"aten::trunc.out", boxed<&trunc_out>},
    {"aten::bitwise_not.out", boxed<&bitwise_not_out>},
    {"aten::isnan.out", boxed<&isnan_out>},
    {"aten::isinf.out", boxed<&isinf_out>},
    {"aten::logical_not.out", boxed<&logical_not_out>},
    {"aten::logit.out", boxed<&logit_out>},
    // compare.h
    {"aten::eq.Tensor_out", boxed<&eq_tensor_out>},
    {"aten::eq.Scalar_out", boxed<&eq_scalar_out>},
    {"aten::ne.Tensor_out", boxed<&ne_tensor_out>},
    {"aten::ne.Scalar_out", boxed<&ne_scalar_out>},
    {"aten::lt.Tensor_out", boxed<&lt_tensor_out>},
    {"aten::lt.Scalar_out", boxed<&lt_scalar_out>},
    {"aten::le.Tensor_out", boxed<&le_tensor_out>},
    {"aten::le.Scalar_out", boxed<&le_scalar_out>},
    {"aten::gt.Tensor_out", boxed<&gt_tensor_out>},
    {"aten::gt.Scalar_out", boxed<&gt_scalar_out>},
    {"aten::ge.Tensor_out", boxed<&ge_tensor_out>},
    {"aten::ge.Scalar_out", boxed<&ge_scalar_out>},
    {"aten::bitwise_and.Tensor_out", boxed<&bitwise_and_tensor_out>},
    {"aten::bitwise_and.Scalar_out", boxed<&bitwise_and_scalar_out>},
    {"aten::bitwise_or.Tensor_out", boxed<&bitwise_or_tensor_out>},
    {"aten::bitwise_or.Scalar_out", boxed<&bitwise_or_scalar_out>},
    {"aten::bitwise_xor.Tensor_out", boxed<&bitwise_xor_tensor_out>},
    {"aten::bitwise_xor.Scalar_out", boxed<&bitwise_xor_scalar_out>},
    {"aten::bitwise_left_shift.Tensor_out", boxed<&bitwise_left_shift_tensor_out>},
    {"aten::bitwise_left_shift.Tensor_Scalar_out", boxed<&bitwise_left_shift_scalar_out>},
    {"aten::bitwise_right_shift.Tensor_out", boxed<&bitwise_right_shift_tensor_out>},
    {"aten::bitwise_right_shift.Tensor_Scalar_out", boxed<&bitwise_right_shift_scalar_out>},
    {"aten::logical_and.out", boxed<&logical_and_out>},
    {"aten::logical_or.out", boxed<&logical_or_out>},
    {"aten::logical_xor.out", boxed<&logical_xor_out>},
    // activation.h
    {"aten::relu.out", boxed<&relu_out>},
    {"aten::hardtanh.out", boxed<&hardtanh_out>},
    {"aten::clamp.out", boxed<&clamp_out>},
    {"aten::clamp.Tensor_out", boxed<&clamp_tensor_out>},
    {"aten::leaky_relu.out", boxed<&leaky_relu_out>},
    {"aten::elu.out", boxed<&elu_out>},
    {"aten::gelu.out", boxed<&gelu_out>},
    {"aten::hardswish.out", boxed<&hardswish_out>},
    {"aten::hardsigmoid.out", boxed<&hardsigmoid_out>},
    {"aten::silu.out", boxed<&silu_out>},
    {"aten::glu.out", boxed<&glu_out>},
    {"aten::where.self_out", boxed<&where_out>},
    {"aten::masked_fill.Scalar_out", boxed<&masked_fill_scalar_out>},
    // copy.h
    {"aten::clone.out", boxed<&clone_out>},
    {"aten::_to_copy.out", boxed<&to_copy_out>},
    {"dim_order_ops::_to_dim_order_copy.out", boxed<&to_dim_order_copy_out>},
    {"dim_order_ops::_clone_dim_order.out", boxed<&clone_dim_order_out>},
    {"dim_order_ops::_empty_dim_order.out", boxed<&empty_dim_order_out>},
    {"aten::copy.out", boxed<&copy_out>},
    {"aten::copy_", boxed<&copy_inplace>},
    {"aten::alias_copy.out", boxed<&plain_copy_out>},
    {"aten::detach_copy.out", boxed<&plain_copy_out>},
    {"aten::lift_fresh_copy.out", boxed<&plain_copy_out>},
    {"et_copy::_h2d_copy.out", boxed<&plain_copy_out>},
    {"et_copy::_d2h_copy.out", boxed<&plain_copy_out>},
    {"aten::fill.Scalar_out", boxed<&fill_scalar_out>},
    {"aten::fill.Tensor_out", boxed<&fill_tensor_out>},
    {"aten::full.out", boxed<&full_out>},
    {"aten::full_like.out", boxed<&full_like_out>},
    {"aten::zeros.out", boxed<&zeros_out>},
    {"aten::ones.out", boxed<&ones_out>},
    {"aten::empty.out", boxed<&empty_out>},
    {"aten::scalar_tensor.out", boxed<&scalar_tensor_out>},
    {"aten::arange.out", boxed<&arange_out>},
    {"aten::arange.start_out", boxed<&arange_start_out>},
    // view.h
    {"aten::view_copy.out", boxed<&view_copy_out>},
    {"aten::permute_copy.out", boxed<&permute_copy_out>},
    {"aten::expand_copy.out", boxed<&expand_copy_out>},
    {"aten::unsqueeze_copy.out", boxed<&unsqueeze_copy_out>},
    {"aten::squeeze_copy.dim_out", boxed<&squeeze_copy_dim_out>},
    {"aten::squeeze_copy.dims_out", boxed<&squeeze_copy_dims_out>},
    {"aten::t_copy.out", boxed<&t_copy_out>},
    {"aten::transpose_copy.int_out", boxed<&transpose_copy_int_out>},
    {"aten::select_copy.int_out", boxed<&select_copy_int_out>},
    {"aten::slice_copy.Tensor_out", boxed<&slice_copy_tensor_out>},
    {"aten::narrow_copy.out", boxed<&narrow_copy_out>},
    {"aten::diagonal_copy.out", boxed<&diagonal_copy_out>},
    {"aten::as_strided_copy.out", boxed<&as_strided_copy_out>},
    {"aten::unfold_copy.out", boxed<&unfold_copy_out>},
    {"aten::split_copy.Tensor_out", boxed<&split_copy_tensor_out>},
    {"aten::split_with_sizes_copy.out", boxed<&split_with_sizes_copy_out>},
    {"aten::unbind_copy.int_out", boxed<&unbind_copy_int_out>},
    {"aten::flip.out", boxed<&flip_out>},
    {"aten::roll.out", boxed<&roll_out>},
    {"aten::repeat.out", boxed<&repeat_out>},
    {"aten::tril.out", boxed<&tril_out>},
    {"aten::pixel_shuffle.out", boxed<&pixel_shuffle_out>},
    {"aten::pixel_unshuffle.out", boxed<&pixel_unshuffle_out>},
    {"aten::view_as_real_copy.out", boxed<&view_as_real_copy_out>},
    // reduce.h
    {"aten::sum.IntList_out", boxed<&sum_intlist_out>},
    {"aten::mean.out", boxed<&mean_out>},
    {"aten::mean.dtype_out", boxed<&mean_dtype_out>},
    {"aten::prod.out", boxed<&prod_out>},
    {"aten::prod.int_out", boxed<&prod_int_out>},
    {"aten::amax.out", boxed<&amax_out>},
    {"aten::amin.out", boxed<&amin_out>},
    {"aten::argmax.out", boxed<&argmax_out>},
    {"aten::argmin.out", boxed<&argmin_out>},
    {"aten::max.dim_max", boxed<&max_dim_out>},
    {"aten::min.dim_min", boxed<&min_dim_out>},
    {"aten::max.unary_out", boxed<&max_unary_out>},
    {"aten::min.unary_out", boxed<&min_unary_out>},
    {"aten::any.all_out", boxed<&any_all_out>},
    {"aten::any.dims_out", boxed<&any_dims_out>},
    {"aten::any.out", boxed<&any_out>},
    {"aten::var.correction_out", boxed<&var_correction_out>},
    {"aten::var.out", boxed<&var_out>},
    {"aten::var_mean.correction_out", boxed<&var_mean_correction_out>},
    {"aten::cumsum.out", boxed<&cumsum_out>},
    {"aten::topk.values", boxed<&topk_values>},
    // matmul.h, conv.h
    {"aten::mm.out", boxed<&mm_out>},
    {"aten::bmm.out", boxed<&bmm_out>},
    {"aten::addmm.out", boxed<&addmm_out>},
    {"aten::convolution.out", boxed<&convolution_out>},
    // norm.h, pool.h
    {"aten::_native_batch_norm_legit_no_training.out", boxed<&batch_norm_no_training_out>},
    {"aten::_native_batch_norm_legit.out", boxed<&batch_norm_legit_out>},
    {"aten::_native_batch_norm_legit.no_stats_out", boxed<&batch_norm_no_stats_out>},
    {"aten::native_layer_norm.out", boxed<&layer_norm_out>},
    {"aten::native_group_norm.out", boxed<&group_norm_out>},
    {"aten::max_pool2d_with_indices.out", boxed<&max_pool2d_with_indices_out>},
    {"aten::avg_pool2d.out", boxed<&avg_pool2d_out>},
    {"aten::_adaptive_avg_pool2d.out", boxed<&adaptive_avg_pool2d_out>},
    {"aten::_softmax.out", boxed<&softmax_out>},
    {"aten::_log_softmax.out", boxed<&log_softmax_out>},
    // join.h, index.h
    {"aten::cat.out", boxed<&cat_out>},
    {"aten::stack.out", boxed<&stack_out>},
    {"aten::select_scatter.out", boxed<&select_scatter_out>},
    {"aten::slice_scatter.out", boxed<&slice_scatter_out>},
    {"aten::embedding.out", boxed<&embedding_out>},
    {"aten::index_select.out", boxed<&index_select_out>},
    {"aten::gather.out", boxed<&gather_out>},
    {"aten::scatter.src_out", boxed<&scatter_src_out>},
    {"aten::scatter.value_out", boxed<&scatter_value_out>},
    {"aten::scatter_add.out", boxed<&scatter_add_out>},
    {"aten::index.Tensor_out", boxed<&index_tensor_out>},
    {"aten::index_put.out", boxed<&index_put_out>},
    {"aten::index_put_", boxed<&index_put_inplace>},
    {"aten::masked_select.out", boxed<&masked_select_out>},
    {"aten::masked_scatter.out", boxed<&masked_scatter_out>},
    {"aten::nonzero.out", boxed<&nonzero_out>},
    {"aten::repeat_interleave.Tensor_out", boxed<&repeat_interleave_tensor_out>},
    // pad.h, upsample.h
    {"aten::constant_pad_nd.out", boxed<&constant_pad_nd_out>},
    {"aten::reflection_pad1d.out", boxed<&reflection_pad1d_out>},
    {"aten::reflection_pad2d.out", boxed<&reflection_pad2d_out>},
    {"aten::reflection_pad3d.out", boxed<&reflection_pad3d_out>},
    {"aten::replication_pad1d.out", boxed<&replication_pad1d_out>},
    {"aten::replication_pad2d.out", boxed<&replication_pad2d_out>},
    {"aten::replication_pad3d.out", boxed<&replication_pad3d_out>},
    {"aten::upsample_nearest2d.vec_out", boxed<&upsample_nearest2d_vec_out>},
    {"aten::upsample_bilinear2d.vec_out", boxed<&upsample_bilinear2d_vec_out>},
    // resample.h, random.h (issue #13)
    {"aten::_upsample_bilinear2d_aa.out", boxed<&upsample_bilinear2d_aa_out>},
    {"aten::grid_sampler_2d.out", boxed<&grid_sampler_2d_out>},
    {"aten::rand.out", boxed<&rand_out>},
    {"aten::randn.out", boxed<&randn_out>},
    // misc.h
    {"aten::_conj_physical.out", boxed<&conj_physical_out>},
    {"aten::native_dropout.out", boxed<&native_dropout_out>},
    {"aten::_cdist_forward.out", boxed<&cdist_forward_out>},
    {"aten::_pdist_forward.out", boxed<&pdist_forward_out>},
    {"aten::max_pool2d_with_indices_backward.grad_input", boxed<&max_pool2d_with_indices_backward_out>},
    // quantize.h (PT2E q/dq programs)
    {"quantized_decomposed::quantize_per_tensor.out", boxed<&quantize_per_tensor_out>},
    {"quantized_decomposed::quantize_per_tensor.Tensor_out", boxed<&quantize_per_tensor_tensor_out>},
    {"quantized_decomposed::dequantize_per_tensor.out", boxed<&dequantize_per_tensor_out>},
    {"quantized_decomposed::dequantize_per_tensor.Tensor_out", boxed<&dequantize_per_tensor_tensor_out>},
    {"quantized_decomposed::quantize_per_channel.out", boxed<&quantize_per_channel_out>},
    {"quantized_decomposed::dequantize_per_channel.out", boxed<&dequantize_per_channel_out>},
    {"quantized_decomposed::choose_qparams.Tensor_out", boxed<&choose_qparams_tensor_out>},
};

}  // namespace

runtime::Span<const Kernel> portable_kernels() {
  return {kKernels, sizeof(kKernels) / sizeof(kKernels[0])};
}

runtime::Error register_kernels(runtime::KernelRegistry& registry) {
  return registry.register_kernels(portable_kernels());
}

}  // namespace ember::kernels::portable
