// The built-in ATen operator schema table (format: see op_schema.h).
//
// Written by us from ATen's documented operator signatures; it covers every op in the
// shared .pt2 fixtures plus the common core-ATen and training-IR ops. Add an op by
// adding one line; op_schema_test parses the whole table.
#include "aot/ir/op_schema.h"

namespace ember::aot {

const char* builtin_op_schema_table() {
  return R"TABLE(
# --- elementwise binary ---
aten::add.Tensor | self:Tensor other:Tensor *alpha:Scalar=1 | Tensor | aten::add.out | -
aten::add.Scalar | self:Tensor other:Scalar alpha:Scalar=1 | Tensor | aten::add.Scalar_out | -
aten::add_.Tensor | self:Tensor! other:Tensor *alpha:Scalar=1 | Tensor | - | inplace
aten::sub.Tensor | self:Tensor other:Tensor *alpha:Scalar=1 | Tensor | aten::sub.out | -
aten::sub.Scalar | self:Tensor other:Scalar alpha:Scalar=1 | Tensor | aten::sub.Scalar_out | -
aten::rsub.Scalar | self:Tensor other:Scalar alpha:Scalar=1 | Tensor | aten::rsub.Scalar_out | -
aten::mul.Tensor | self:Tensor other:Tensor | Tensor | aten::mul.out | -
aten::mul.Scalar | self:Tensor other:Scalar | Tensor | aten::mul.Scalar_out | -
aten::mul_.Tensor | self:Tensor! other:Tensor | Tensor | - | inplace
aten::div.Tensor | self:Tensor other:Tensor | Tensor | aten::div.out | -
aten::div.Scalar | self:Tensor other:Scalar | Tensor | aten::div.Scalar_out | -
aten::div.Tensor_mode | self:Tensor other:Tensor *rounding_mode:str? | Tensor | aten::div.out_mode | -
aten::div.Scalar_mode | self:Tensor other:Scalar *rounding_mode:str? | Tensor | aten::div.Scalar_mode_out | -
aten::pow.Tensor_Scalar | self:Tensor exponent:Scalar | Tensor | aten::pow.Tensor_Scalar_out | -
aten::pow.Tensor_Tensor | self:Tensor exponent:Tensor | Tensor | aten::pow.Tensor_Tensor_out | -
aten::maximum.default | self:Tensor other:Tensor | Tensor | aten::maximum.out | -
aten::minimum.default | self:Tensor other:Tensor | Tensor | aten::minimum.out | -
aten::eq.Tensor | self:Tensor other:Tensor | Tensor | aten::eq.Tensor_out | -
aten::eq.Scalar | self:Tensor other:Scalar | Tensor | aten::eq.Scalar_out | -
aten::ne.Scalar | self:Tensor other:Scalar | Tensor | aten::ne.Scalar_out | -
aten::lt.Scalar | self:Tensor other:Scalar | Tensor | aten::lt.Scalar_out | -
aten::gt.Scalar | self:Tensor other:Scalar | Tensor | aten::gt.Scalar_out | -
aten::where.self | condition:Tensor self:Tensor other:Tensor | Tensor | aten::where.self_out | -
# --- elementwise unary / activations ---
aten::relu.default | self:Tensor | Tensor | aten::relu.out | -
aten::relu_.default | self:Tensor! | Tensor | - | inplace
aten::hardtanh.default | self:Tensor min_val:Scalar=-1 max_val:Scalar=1 | Tensor | aten::hardtanh.out | -
aten::hardtanh_.default | self:Tensor! min_val:Scalar=-1 max_val:Scalar=1 | Tensor | - | inplace
aten::leaky_relu.default | self:Tensor negative_slope:Scalar=0.01 | Tensor | aten::leaky_relu.out | -
aten::gelu.default | self:Tensor *approximate:str='none' | Tensor | aten::gelu.out | -
aten::sigmoid.default | self:Tensor | Tensor | aten::sigmoid.out | -
aten::tanh.default | self:Tensor | Tensor | aten::tanh.out | -
aten::silu.default | self:Tensor | Tensor | aten::silu.out | -
aten::hardswish.default | self:Tensor | Tensor | aten::hardswish.out | -
aten::hardsigmoid.default | self:Tensor | Tensor | aten::hardsigmoid.out | -
aten::clamp.default | self:Tensor min:Scalar?=None max:Scalar?=None | Tensor | aten::clamp.out | -
aten::exp.default | self:Tensor | Tensor | aten::exp.out | -
aten::log.default | self:Tensor | Tensor | aten::log.out | -
aten::sqrt.default | self:Tensor | Tensor | aten::sqrt.out | -
aten::rsqrt.default | self:Tensor | Tensor | aten::rsqrt.out | -
aten::neg.default | self:Tensor | Tensor | aten::neg.out | -
aten::abs.default | self:Tensor | Tensor | aten::abs.out | -
# --- linear algebra / convolution ---
aten::conv1d.default | input:Tensor weight:Tensor bias:Tensor?=None stride:SymInt[1]=1 padding:SymInt[1]=0 dilation:SymInt[1]=1 groups:SymInt=1 | Tensor | - | -
aten::conv2d.default | input:Tensor weight:Tensor bias:Tensor?=None stride:SymInt[2]=1 padding:SymInt[2]=0 dilation:SymInt[2]=1 groups:SymInt=1 | Tensor | - | -
aten::conv2d.padding | input:Tensor weight:Tensor bias:Tensor?=None stride:SymInt[2]=1 padding:str='valid' dilation:SymInt[2]=1 groups:SymInt=1 | Tensor | - | -
aten::convolution.default | input:Tensor weight:Tensor bias:Tensor? stride:SymInt[] padding:SymInt[] dilation:SymInt[] transposed:bool output_padding:SymInt[] groups:SymInt | Tensor | aten::convolution.out | -
aten::linear.default | input:Tensor weight:Tensor bias:Tensor?=None | Tensor | aten::linear.out | -
aten::addmm.default | self:Tensor mat1:Tensor mat2:Tensor *beta:Scalar=1 *alpha:Scalar=1 | Tensor | aten::addmm.out | -
aten::mm.default | self:Tensor mat2:Tensor | Tensor | aten::mm.out | -
aten::bmm.default | self:Tensor mat2:Tensor | Tensor | aten::bmm.out | -
aten::matmul.default | self:Tensor other:Tensor | Tensor | aten::matmul.out | -
aten::embedding.default | weight:Tensor indices:Tensor padding_idx:SymInt=-1 scale_grad_by_freq:bool=False sparse:bool=False | Tensor | aten::embedding.out | -
aten::scaled_dot_product_attention.default | query:Tensor key:Tensor value:Tensor attn_mask:Tensor?=None dropout_p:float=0.0 is_causal:bool=False *scale:float?=None *enable_gqa:bool=False | Tensor | - | -
# --- normalization ---
aten::batch_norm.default | input:Tensor weight:Tensor? bias:Tensor? running_mean:Tensor? running_var:Tensor? training:bool momentum:float eps:float cudnn_enabled:bool | Tensor | - | -
aten::native_batch_norm.default | input:Tensor weight:Tensor? bias:Tensor? running_mean:Tensor? running_var:Tensor? training:bool momentum:float eps:float | Tensor Tensor Tensor | aten::native_batch_norm.out | -
aten::_native_batch_norm_legit_no_training.default | input:Tensor weight:Tensor? bias:Tensor? running_mean:Tensor running_var:Tensor momentum:float eps:float | Tensor Tensor Tensor | aten::_native_batch_norm_legit_no_training.out | -
aten::_native_batch_norm_legit.default | input:Tensor weight:Tensor? bias:Tensor? running_mean:Tensor! running_var:Tensor! training:bool momentum:float eps:float | Tensor Tensor Tensor | aten::_native_batch_norm_legit.out | -
aten::_native_batch_norm_legit.no_stats | input:Tensor weight:Tensor? bias:Tensor? training:bool momentum:float eps:float | Tensor Tensor Tensor | aten::_native_batch_norm_legit.no_stats_out | -
aten::_native_batch_norm_legit_functional.default | input:Tensor weight:Tensor? bias:Tensor? running_mean:Tensor running_var:Tensor training:bool momentum:float eps:float | Tensor Tensor Tensor Tensor Tensor | - | -
aten::layer_norm.default | input:Tensor normalized_shape:SymInt[] weight:Tensor?=None bias:Tensor?=None eps:float=1e-05 cudnn_enable:bool=True | Tensor | - | -
aten::native_layer_norm.default | input:Tensor normalized_shape:SymInt[] weight:Tensor? bias:Tensor? eps:float | Tensor Tensor Tensor | aten::native_layer_norm.out | -
aten::group_norm.default | input:Tensor num_groups:int weight:Tensor?=None bias:Tensor?=None eps:float=1e-05 cudnn_enabled:bool=True | Tensor | - | -
aten::native_group_norm.default | input:Tensor weight:Tensor? bias:Tensor? N:SymInt C:SymInt HxW:SymInt group:int eps:float | Tensor Tensor Tensor | aten::native_group_norm.out | -
# --- pooling / dropout ---
aten::max_pool2d.default | self:Tensor kernel_size:int[2] stride:int[2]=[] padding:int[2]=0 dilation:int[2]=1 ceil_mode:bool=False | Tensor | - | -
aten::max_pool2d_with_indices.default | self:Tensor kernel_size:int[2] stride:int[2]=[] padding:int[2]=0 dilation:int[2]=1 ceil_mode:bool=False | Tensor Tensor | aten::max_pool2d_with_indices.out | -
aten::avg_pool2d.default | self:Tensor kernel_size:int[2] stride:int[2]=[] padding:int[2]=0 ceil_mode:bool=False count_include_pad:bool=True divisor_override:int?=None | Tensor | aten::avg_pool2d.out | -
aten::adaptive_avg_pool2d.default | self:Tensor output_size:SymInt[2] | Tensor | aten::adaptive_avg_pool2d.out | -
aten::_adaptive_avg_pool2d.default | self:Tensor output_size:SymInt[2] | Tensor | aten::_adaptive_avg_pool2d.out | -
aten::dropout.default | input:Tensor p:float train:bool | Tensor | - | -
aten::native_dropout.default | input:Tensor p:float train:bool? | Tensor Tensor | aten::native_dropout.out | -
aten::upsample_nearest2d.vec | input:Tensor output_size:SymInt[]? scale_factors:float[]? | Tensor | aten::upsample_nearest2d.vec_out | -
aten::upsample_bilinear2d.vec | input:Tensor output_size:SymInt[]? align_corners:bool scale_factors:float[]? | Tensor | aten::upsample_bilinear2d.vec_out | -
# --- reductions / softmax ---
aten::mean.dim | self:Tensor dim:int[1]? keepdim:bool=False *dtype:ScalarType?=None | Tensor | aten::mean.out | -
aten::mean.default | self:Tensor *dtype:ScalarType?=None | Tensor | aten::mean.dtype_out | -
aten::sum.dim_IntList | self:Tensor dim:int[1]? keepdim:bool=False *dtype:ScalarType?=None | Tensor | aten::sum.IntList_out | -
aten::sum.default | self:Tensor *dtype:ScalarType?=None | Tensor | aten::sum.out | -
aten::amax.default | self:Tensor dim:int[1]=[] keepdim:bool=False | Tensor | aten::amax.out | -
aten::amin.default | self:Tensor dim:int[1]=[] keepdim:bool=False | Tensor | aten::amin.out | -
aten::argmax.default | self:Tensor dim:int?=None keepdim:bool=False | Tensor | aten::argmax.out | -
aten::max.dim | self:Tensor dim:int keepdim:bool=False | Tensor Tensor | aten::max.dim_max | -
aten::var.correction | self:Tensor dim:int[1]?=None *correction:Scalar?=None *keepdim:bool=False | Tensor | aten::var.correction_out | -
aten::softmax.int | self:Tensor dim:int dtype:ScalarType?=None | Tensor | aten::softmax.int_out | -
aten::_softmax.default | self:Tensor dim:int half_to_float:bool | Tensor | aten::_softmax.out | -
aten::log_softmax.int | self:Tensor dim:int dtype:ScalarType?=None | Tensor | aten::log_softmax.int_out | -
aten::_log_softmax.default | self:Tensor dim:int half_to_float:bool | Tensor | aten::_log_softmax.out | -
# --- shape and views ---
aten::view.default | self:Tensor size:SymInt[] | Tensor | aten::view_copy.out | view
aten::_unsafe_view.default | self:Tensor size:SymInt[] | Tensor | aten::_unsafe_view.out | -
aten::reshape.default | self:Tensor shape:SymInt[] | Tensor | - | view
aten::permute.default | self:Tensor dims:int[] | Tensor | aten::permute_copy.out | view
aten::expand.default | self:Tensor size:SymInt[] *implicit:bool=False | Tensor | aten::expand_copy.out | view
aten::t.default | self:Tensor | Tensor | aten::t_copy.out | view
aten::transpose.int | self:Tensor dim0:int dim1:int | Tensor | aten::transpose_copy.int_out | view
aten::slice.Tensor | self:Tensor dim:int=0 start:SymInt?=None end:SymInt?=None step:SymInt=1 | Tensor | aten::slice_copy.Tensor_out | view
aten::select.int | self:Tensor dim:int index:SymInt | Tensor | aten::select_copy.int_out | view
aten::squeeze.default | self:Tensor | Tensor | aten::squeeze_copy.out | view
aten::squeeze.dim | self:Tensor dim:int | Tensor | aten::squeeze_copy.dim_out | view
aten::squeeze.dims | self:Tensor dim:int[] | Tensor | aten::squeeze_copy.dims_out | view
aten::unsqueeze.default | self:Tensor dim:int | Tensor | aten::unsqueeze_copy.out | view
aten::flatten.using_ints | self:Tensor start_dim:int=0 end_dim:int=-1 | Tensor | - | view
aten::alias.default | self:Tensor | Tensor | aten::alias_copy.out | view
aten::detach.default | self:Tensor | Tensor | aten::detach_copy.out | view
aten::split.Tensor | self:Tensor split_size:SymInt dim:int=0 | Tensor[] | aten::split_copy.Tensor_out | view
aten::split_with_sizes.default | self:Tensor split_sizes:SymInt[] dim:int=0 | Tensor[] | aten::split_with_sizes_copy.out | view
aten::unbind.int | self:Tensor dim:int=0 | Tensor[] | aten::unbind_copy.int_out | view
aten::cat.default | tensors:Tensor[] dim:int=0 | Tensor | aten::cat.out | -
aten::repeat.default | self:Tensor repeats:SymInt[] | Tensor | aten::repeat.out | -
aten::constant_pad_nd.default | self:Tensor pad:SymInt[] value:Scalar=0 | Tensor | aten::constant_pad_nd.out | -
aten::index.Tensor | self:Tensor indices:Tensor?[] | Tensor | aten::index.Tensor_out | -
aten::index_select.default | self:Tensor dim:int index:Tensor | Tensor | aten::index_select.out | -
aten::gather.default | self:Tensor dim:int index:Tensor *sparse_grad:bool=False | Tensor | aten::gather.out | -
# --- copies, conversions, factories ---
aten::clone.default | self:Tensor *memory_format:MemoryFormat?=None | Tensor | aten::clone.out | -
aten::_to_copy.default | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *non_blocking:bool=False *memory_format:MemoryFormat?=None | Tensor | aten::_to_copy.out | -
aten::copy.default | self:Tensor src:Tensor non_blocking:bool=False | Tensor | aten::copy.out | -
aten::copy_.default | self:Tensor! src:Tensor non_blocking:bool=False | Tensor | - | inplace
aten::lift_fresh_copy.default | self:Tensor | Tensor | aten::lift_fresh_copy.out | -
aten::full.default | size:SymInt[] fill_value:Scalar *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::full.out | -
aten::zeros.default | size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::zeros.out | -
aten::ones.default | size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::ones.out | -
aten::empty.memory_format | size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | aten::empty.out | -
aten::full_like.default | self:Tensor fill_value:Scalar *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | aten::full_like.out | -
aten::zeros_like.default | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | aten::zeros_like.out | -
aten::ones_like.default | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | aten::ones_like.out | -
aten::arange.start_step | start:Scalar end:Scalar step:Scalar=1 *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::arange.start_out | -
aten::scalar_tensor.default | s:Scalar *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::scalar_tensor.out | -
# --- more elementwise / comparison ---
aten::sub_.Tensor | self:Tensor! other:Tensor *alpha:Scalar=1 | Tensor | - | inplace
aten::div_.Tensor | self:Tensor! other:Tensor | Tensor | - | inplace
aten::lt.Tensor | self:Tensor other:Tensor | Tensor | aten::lt.Tensor_out | -
aten::gt.Tensor | self:Tensor other:Tensor | Tensor | aten::gt.Tensor_out | -
aten::le.Scalar | self:Tensor other:Scalar | Tensor | aten::le.Scalar_out | -
aten::ge.Scalar | self:Tensor other:Scalar | Tensor | aten::ge.Scalar_out | -
aten::ne.Tensor | self:Tensor other:Tensor | Tensor | aten::ne.Tensor_out | -
aten::logical_not.default | self:Tensor | Tensor | aten::logical_not.out | -
aten::logical_and.default | self:Tensor other:Tensor | Tensor | aten::logical_and.out | -
aten::bitwise_not.default | self:Tensor | Tensor | aten::bitwise_not.out | -
aten::reciprocal.default | self:Tensor | Tensor | aten::reciprocal.out | -
aten::floor.default | self:Tensor | Tensor | aten::floor.out | -
aten::ceil.default | self:Tensor | Tensor | aten::ceil.out | -
aten::round.default | self:Tensor | Tensor | aten::round.out | -
aten::sign.default | self:Tensor | Tensor | aten::sign.out | -
aten::erf.default | self:Tensor | Tensor | aten::erf.out | -
aten::sin.default | self:Tensor | Tensor | aten::sin.out | -
aten::cos.default | self:Tensor | Tensor | aten::cos.out | -
aten::elu.default | self:Tensor alpha:Scalar=1 scale:Scalar=1 input_scale:Scalar=1 | Tensor | aten::elu.out | -
aten::clamp_min.default | self:Tensor min:Scalar | Tensor | aten::clamp_min.out | -
aten::clamp.Tensor | self:Tensor min:Tensor?=None max:Tensor?=None | Tensor | aten::clamp.Tensor_out | -
aten::sigmoid_.default | self:Tensor! | Tensor | - | inplace
aten::silu_.default | self:Tensor! | Tensor | - | inplace
aten::hardswish_.default | self:Tensor! | Tensor | - | inplace
# --- more structure ---
aten::conv_transpose2d.input | input:Tensor weight:Tensor bias:Tensor?=None stride:SymInt[2]=1 padding:SymInt[2]=0 output_padding:SymInt[2]=0 groups:SymInt=1 dilation:SymInt[2]=1 | Tensor | - | -
aten::baddbmm.default | self:Tensor batch1:Tensor batch2:Tensor *beta:Scalar=1 *alpha:Scalar=1 | Tensor | aten::baddbmm.out | -
aten::cumsum.default | self:Tensor dim:int *dtype:ScalarType?=None | Tensor | aten::cumsum.out | -
aten::prod.dim_int | self:Tensor dim:int keepdim:bool=False *dtype:ScalarType?=None | Tensor | aten::prod.int_out | -
aten::topk.default | self:Tensor k:SymInt dim:int=-1 largest:bool=True sorted:bool=True | Tensor Tensor | aten::topk.values | -
aten::pixel_shuffle.default | self:Tensor upscale_factor:int | Tensor | aten::pixel_shuffle.out | -
aten::upsample_nearest2d.default | self:Tensor output_size:SymInt[2] scales_h:float?=None scales_w:float?=None | Tensor | aten::upsample_nearest2d.out | -
aten::max_pool1d.default | self:Tensor kernel_size:int[1] stride:int[1]=[] padding:int[1]=0 dilation:int[1]=1 ceil_mode:bool=False | Tensor | - | -
aten::avg_pool1d.default | self:Tensor kernel_size:int[1] stride:int[1]=[] padding:int[1]=0 ceil_mode:bool=False count_include_pad:bool=True | Tensor | - | -
aten::contiguous.default | self:Tensor *memory_format:MemoryFormat=contiguous_format | Tensor | - | -
aten::stack.default | tensors:Tensor[] dim:int=0 | Tensor | aten::stack.out | -
aten::flip.default | self:Tensor dims:int[] | Tensor | aten::flip.out | -
aten::roll.default | self:Tensor shifts:SymInt[1] dims:int[1]=[] | Tensor | aten::roll.out | -
aten::masked_fill.Scalar | self:Tensor mask:Tensor value:Scalar | Tensor | aten::masked_fill.Scalar_out | -
aten::unfold.default | self:Tensor dimension:int size:int step:int | Tensor | aten::unfold_copy.out | view
# --- functional copies of views (edge dialect) ---
aten::view_copy.default | self:Tensor size:SymInt[] | Tensor | aten::view_copy.out | -
aten::permute_copy.default | self:Tensor dims:int[] | Tensor | aten::permute_copy.out | -
aten::expand_copy.default | self:Tensor size:SymInt[] *implicit:bool=False | Tensor | aten::expand_copy.out | -
aten::t_copy.default | self:Tensor | Tensor | aten::t_copy.out | -
aten::transpose_copy.int | self:Tensor dim0:int dim1:int | Tensor | aten::transpose_copy.int_out | -
aten::slice_copy.Tensor | self:Tensor dim:int=0 start:SymInt?=None end:SymInt?=None step:SymInt=1 | Tensor | aten::slice_copy.Tensor_out | -
aten::select_copy.int | self:Tensor dim:int index:SymInt | Tensor | aten::select_copy.int_out | -
aten::squeeze_copy.dims | self:Tensor dim:int[] | Tensor | aten::squeeze_copy.dims_out | -
aten::unsqueeze_copy.default | self:Tensor dim:int | Tensor | aten::unsqueeze_copy.out | -
aten::alias_copy.default | self:Tensor | Tensor | aten::alias_copy.out | -
aten::split_with_sizes_copy.default | self:Tensor split_sizes:SymInt[] dim:int=0 | Tensor[] | aten::split_with_sizes_copy.out | -
# --- symbolic shapes and assertions ---
aten::sym_size.int | self:Tensor dim:int | SymInt | - | -
aten::sym_numel.default | self:Tensor | SymInt | - | -
aten::_assert_scalar.default | self:Scalar assert_msg:str | - | - | -
aten::_assert_tensor_metadata.default | a:Tensor size:SymInt[]?=None stride:SymInt[]?=None dtype:ScalarType?=None *device:Device?=None *layout:Layout?=None | - | - | -
# --- quantized_decomposed (PT2E convert_pt2e output; kernels in kernels/portable/ops/quantize.cc) ---
quantized_decomposed::quantize_per_tensor.default | input:Tensor scale:float zero_point:int quant_min:int quant_max:int dtype:ScalarType | Tensor | quantized_decomposed::quantize_per_tensor.out | -
quantized_decomposed::quantize_per_tensor.tensor | input:Tensor scale:Tensor zero_point:Tensor quant_min:int quant_max:int dtype:ScalarType | Tensor | quantized_decomposed::quantize_per_tensor.Tensor_out | -
quantized_decomposed::dequantize_per_tensor.default | input:Tensor scale:float zero_point:int quant_min:int quant_max:int dtype:ScalarType *out_dtype:ScalarType?=None | Tensor | quantized_decomposed::dequantize_per_tensor.out | -
quantized_decomposed::dequantize_per_tensor.tensor | input:Tensor scale:Tensor zero_point:Tensor quant_min:int quant_max:int dtype:ScalarType *out_dtype:ScalarType?=None | Tensor | quantized_decomposed::dequantize_per_tensor.Tensor_out | -
quantized_decomposed::quantize_per_channel.default | input:Tensor scales:Tensor zero_points:Tensor axis:int quant_min:int quant_max:int dtype:ScalarType | Tensor | quantized_decomposed::quantize_per_channel.out | -
quantized_decomposed::dequantize_per_channel.default | input:Tensor scales:Tensor zero_points:Tensor? axis:int quant_min:int quant_max:int dtype:ScalarType *out_dtype:ScalarType?=None | Tensor | quantized_decomposed::dequantize_per_channel.out | -
quantized_decomposed::choose_qparams.tensor | input:Tensor quant_min:int quant_max:int eps:float dtype:ScalarType | Tensor Tensor | quantized_decomposed::choose_qparams.Tensor_out | -
# --- training IR of torchvision models (issue #13; decompositions in decomp_tensor_ops.cc,
# decomp_einsum.cc) ---
aten::chunk.default | self:Tensor chunks:int dim:int=0 | Tensor[] | - | -
aten::swapaxes.default | self:Tensor axis0:int axis1:int | Tensor | - | -
aten::expand_as.default | self:Tensor other:Tensor | Tensor | - | -
aten::new_zeros.default | self:Tensor size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | - | -
aten::new_ones.default | self:Tensor size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | - | -
aten::new_full.default | self:Tensor size:SymInt[] fill_value:Scalar *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | - | -
aten::pad.default | self:Tensor pad:SymInt[] mode:str='constant' value:float?=None | Tensor | - | -
aten::reflection_pad1d.default | self:Tensor padding:SymInt[2] | Tensor | aten::reflection_pad1d.out | -
aten::reflection_pad2d.default | self:Tensor padding:SymInt[4] | Tensor | aten::reflection_pad2d.out | -
aten::replication_pad1d.default | self:Tensor padding:SymInt[2] | Tensor | aten::replication_pad1d.out | -
aten::replication_pad2d.default | self:Tensor padding:SymInt[4] | Tensor | aten::replication_pad2d.out | -
aten::fill.Scalar | self:Tensor value:Scalar | Tensor | aten::fill.Scalar_out | -
aten::fill.Tensor | self:Tensor value:Tensor | Tensor | aten::fill.Tensor_out | -
aten::fill_.Scalar | self:Tensor! value:Scalar | Tensor | - | inplace
aten::fill_.Tensor | self:Tensor! value:Tensor | Tensor | - | inplace
aten::zero.default | self:Tensor | Tensor | - | -
aten::zero_.default | self:Tensor! | Tensor | - | inplace
aten::dropout_.default | self:Tensor! p:float train:bool | Tensor | - | inplace
aten::masked_fill_.Scalar | self:Tensor! mask:Tensor value:Scalar | Tensor | - | inplace
aten::linalg_vector_norm.default | self:Tensor ord:Scalar=2 dim:int[1]?=None keepdim:bool=False *dtype:ScalarType?=None | Tensor | - | -
aten::einsum.default | equation:str tensors:Tensor[] *path:int[]?=None | Tensor | - | -
aten::slice_scatter.default | self:Tensor src:Tensor dim:int=0 start:SymInt?=None end:SymInt?=None step:SymInt=1 | Tensor | aten::slice_scatter.out | -
aten::select_scatter.default | self:Tensor src:Tensor dim:int index:SymInt | Tensor | aten::select_scatter.out | -
aten::fmod.Scalar | self:Tensor other:Scalar | Tensor | aten::fmod.Scalar_out | -
aten::as_strided.default | self:Tensor size:SymInt[] stride:SymInt[] storage_offset:SymInt?=None | Tensor | aten::as_strided_copy.out | view
aten::_upsample_bilinear2d_aa.vec | input:Tensor output_size:SymInt[]? align_corners:bool scale_factors:float[]? | Tensor | - | -
aten::_upsample_bilinear2d_aa.default | self:Tensor output_size:SymInt[2] align_corners:bool scales_h:float?=None scales_w:float?=None | Tensor | aten::_upsample_bilinear2d_aa.out | -
aten::grid_sampler.default | input:Tensor grid:Tensor interpolation_mode:int padding_mode:int align_corners:bool | Tensor | - | -
aten::grid_sampler_2d.default | input:Tensor grid:Tensor interpolation_mode:int padding_mode:int align_corners:bool | Tensor | aten::grid_sampler_2d.out | -
aten::rand.default | size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::rand.out | -
aten::randn.default | size:SymInt[] *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::randn.out | -
aten::rand_like.default | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | - | -
aten::randn_like.default | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *memory_format:MemoryFormat?=None | Tensor | - | -
# --- added by aot/passes (lowering) ---
aten::any.dim | self:Tensor dim:int keepdim:bool=False | Tensor | aten::any.out | -
aten::any.dims | self:Tensor dim:int[]?=None keepdim:bool=False | Tensor | aten::any.dims_out | -
aten::relu6.default | self:Tensor | Tensor | - | -
aten::to.dtype | self:Tensor dtype:ScalarType non_blocking:bool=False copy:bool=False *memory_format:MemoryFormat?=None | Tensor | - | -
aten::unflatten.int | self:Tensor dim:int sizes:SymInt[] | Tensor | - | view
# --- data-dependent output sizes (unbacked symbols u0, u1, ...; docs/aot.md) ---
aten::nonzero.default | self:Tensor | Tensor | aten::nonzero.out | -
aten::masked_select.default | self:Tensor mask:Tensor | Tensor | aten::masked_select.out | -
aten::_unique2.default | self:Tensor sorted:bool=True return_inverse:bool=False return_counts:bool=False | Tensor Tensor Tensor | aten::_unique2.out | -
aten::_local_scalar_dense.default | self:Tensor | Scalar | - | -
aten::item.default | self:Tensor | Scalar | - | -
# --- BEGIN llm branch (issue #31): decoder LLM exports. The `ops` branch generates the
# --- table from PyTorch; drop this block at that merge if its lines are there.
aten::add_.Scalar | self:Tensor! other:Scalar alpha:Scalar=1 | Tensor | - | inplace
aten::sub_.Scalar | self:Tensor! other:Scalar alpha:Scalar=1 | Tensor | - | inplace
aten::mul_.Scalar | self:Tensor! other:Scalar | Tensor | - | inplace
aten::div_.Scalar | self:Tensor! other:Scalar | Tensor | - | inplace
aten::le.Tensor | self:Tensor other:Tensor | Tensor | aten::le.Tensor_out | -
aten::index_put.default | self:Tensor indices:Tensor?[] values:Tensor accumulate:bool=False | Tensor | aten::index_put.out | -
aten::index_put_.default | self:Tensor! indices:Tensor?[] values:Tensor accumulate:bool=False | Tensor | - | inplace
aten::index_copy.default | self:Tensor dim:int index:Tensor source:Tensor | Tensor | aten::index_copy.out | -
aten::index_copy_.default | self:Tensor! dim:int index:Tensor source:Tensor | Tensor | - | inplace
aten::arange.default | end:Scalar *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None | Tensor | aten::arange.out | -
aten::to.dtype_layout | self:Tensor *dtype:ScalarType?=None *layout:Layout?=None *device:Device?=None *pin_memory:bool?=None *non_blocking:bool=False *copy:bool=False *memory_format:MemoryFormat?=None | Tensor | - | -
aten::type_as.default | self:Tensor other:Tensor | Tensor | - | -
# --- END llm branch
)TABLE";
}

}  // namespace ember::aot
