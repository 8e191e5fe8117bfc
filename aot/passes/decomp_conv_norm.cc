// Decompositions of convolution, normalization, pooling and activation training-IR ops:
//   conv1d/conv2d/conv3d(x, W, b, stride, padding, dilation, groups)
//        -> convolution(x, W, b, stride, padding, dilation, False, [0..], groups)
//   conv2d/conv3d.padding(..., 'valid'|'same') -> convolution with explicit symmetric padding
//   batch_norm(x, w, b, rm, rv, training=False, m, eps, _)
//        -> _native_batch_norm_legit_no_training(x, w, b, rm, rv, m, eps)[0]
//   layer_norm(x, shape, w, b, eps, _) -> native_layer_norm(x, shape, w, b, eps)[0]
//   max_pool2d/3d(x, k, s, p, d, ceil) -> max_pool2d/3d_with_indices(x, k, s, p, d, ceil)[0]
//   adaptive_avg_pool2d(x, [1, 1]) -> mean.dim(x, [-1, -2], keepdim=True)
//   adaptive_avg_pool2d(x, s)      -> _adaptive_avg_pool2d(x, s)
//   adaptive_avg_pool3d(x, [1, 1, 1]) -> mean.dim(x, [-1, -2, -3], keepdim=True)
//   adaptive_avg_pool3d(x, s)      -> _adaptive_avg_pool3d(x, s)
//   dropout(x, p, train=False)     -> x (alias)
//   relu6(x)                       -> hardtanh(x, 0, 6)
#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }

Argument arg_or(const Node& node, const char* name, Argument fallback) {
  const Argument* a = input_arg(node, name);
  return a == nullptr ? fallback : *a;
}

Argument expand_list(Argument a, size_t n) {
  if (a.kind == ArgKind::Int) return Argument::int_list(std::vector<int64_t>(n, a.i));
  if ((a.kind == ArgKind::IntList || a.kind == ArgKind::SymIntList) && a.ints.size() == 1 && n > 1) {
    return Argument::int_list(std::vector<int64_t>(n, a.ints[0]));
  }
  return a;
}

Result<Rewrite> convolution(Graph& g, const Node& node, size_t spatial, Argument padding) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  EMBER_ASSIGN_OR_RETURN(ValueId w, tensor_input(node, "weight"));
  (void)g;
  std::vector<int64_t> ones(spatial, 1);
  std::vector<int64_t> zeros(spatial, 0);
  rw.nodes.push_back(make_op_node(
      "aten", "convolution", "default",
      {named("input", Argument::tensor(x)), named("weight", Argument::tensor(w)),
       named("bias", arg_or(node, "bias", Argument::none())),
       named("stride", expand_list(arg_or(node, "stride", Argument::int_list(ones)), spatial)),
       named("padding", expand_list(padding, spatial)),
       named("dilation", expand_list(arg_or(node, "dilation", Argument::int_list(ones)), spatial)),
       named("transposed", Argument::boolean(false)),
       named("output_padding", Argument::int_list(zeros)),
       named("groups", arg_or(node, "groups", Argument::integer(1)))},
      node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_conv1d(Graph& g, const Node& node) {
  return convolution(g, node, 1, arg_or(node, "padding", Argument::int_list({0})));
}

Result<Rewrite> decompose_conv2d(Graph& g, const Node& node) {
  return convolution(g, node, 2, arg_or(node, "padding", Argument::int_list({0, 0})));
}

Result<Rewrite> decompose_conv3d(Graph& g, const Node& node) {
  return convolution(g, node, 3, arg_or(node, "padding", Argument::int_list({0, 0, 0})));
}

Result<Rewrite> conv_padding_mode(Graph& g, const Node& node, size_t spatial) {
  const Argument* pad = input_arg(node, "padding");
  std::string mode = pad == nullptr ? "valid" : pad->s;
  if (mode == "valid") {
    return convolution(g, node, spatial, Argument::int_list(std::vector<int64_t>(spatial, 0)));
  }
  EMBER_ASSIGN_OR_RETURN(ValueId w, tensor_input(node, "weight"));
  const TensorSpec& ws = g.value(w).tensor;
  if (ws.sizes.size() != spatial + 2) {
    return invalid_program(node.describe() + ": weight rank does not match the conv");
  }
  EMBER_ASSIGN_OR_RETURN(
      std::vector<int64_t> dil,
      static_int_list(expand_list(arg_or(node, "dilation",
                                         Argument::int_list(std::vector<int64_t>(spatial, 1))),
                                  spatial),
                      node, "dilation"));
  if (dil.size() != spatial) return invalid_program(node.describe() + ": bad dilation");
  std::vector<int64_t> padding;
  for (size_t d = 0; d < spatial; ++d) {
    int64_t total = dil[d] * (ws.sizes[2 + d].value - 1);
    if (total % 2 != 0) {
      return not_supported(node.describe() + ": padding='same' needs asymmetric padding here");
    }
    padding.push_back(total / 2);
  }
  return convolution(g, node, spatial, Argument::int_list(padding));
}

Result<Rewrite> decompose_conv2d_padding(Graph& g, const Node& node) {
  return conv_padding_mode(g, node, 2);
}

Result<Rewrite> decompose_conv3d_padding(Graph& g, const Node& node) {
  return conv_padding_mode(g, node, 3);
}

Result<Rewrite> decompose_batch_norm(Graph& g, const Node& node) {
  Rewrite rw;
  const Argument* training = input_arg(node, "training");
  if (training != nullptr && training->b) {
    return not_supported(node.describe() +
                         ": batch_norm with training=True; export the model in eval() mode");
  }
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  EMBER_ASSIGN_OR_RETURN(ValueId rm, tensor_input(node, "running_mean"));
  EMBER_ASSIGN_OR_RETURN(ValueId rv, tensor_input(node, "running_var"));
  EMBER_ASSIGN_OR_RETURN(ValueId mean, new_tensor_like(g, x, "bn_save_mean", static_sizes({0})));
  EMBER_ASSIGN_OR_RETURN(ValueId rstd, new_tensor_like(g, x, "bn_save_rstd", static_sizes({0})));
  rw.nodes.push_back(make_op_node(
      "aten", "_native_batch_norm_legit_no_training", "default",
      {named("input", Argument::tensor(x)), named("weight", arg_or(node, "weight", Argument::none())),
       named("bias", arg_or(node, "bias", Argument::none())),
       named("running_mean", Argument::tensor(rm)), named("running_var", Argument::tensor(rv)),
       named("momentum", arg_or(node, "momentum", Argument::floating(0.1))),
       named("eps", arg_or(node, "eps", Argument::floating(1e-5)))},
      {node.outputs[0], Argument::tensor(mean), Argument::tensor(rstd)}, node));
  return rw;
}

Result<Rewrite> decompose_layer_norm(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  const Argument* shape = input_arg(node, "normalized_shape");
  if (shape == nullptr) return invalid_program(node.describe() + ": normalized_shape is missing");
  std::vector<SymInt> stat_sizes = g.value(x).tensor.sizes;
  size_t norm = shape->ints.size();
  if (norm > stat_sizes.size()) return invalid_program(node.describe() + ": normalized_shape too long");
  for (size_t d = stat_sizes.size() - norm; d < stat_sizes.size(); ++d) stat_sizes[d] = SymInt::of(1);
  EMBER_ASSIGN_OR_RETURN(ValueId mean, new_tensor_like(g, x, "ln_mean", stat_sizes));
  EMBER_ASSIGN_OR_RETURN(ValueId rstd, new_tensor_like(g, x, "ln_rstd", stat_sizes));
  rw.nodes.push_back(make_op_node(
      "aten", "native_layer_norm", "default",
      {named("input", Argument::tensor(x)), named("normalized_shape", *shape),
       named("weight", arg_or(node, "weight", Argument::none())),
       named("bias", arg_or(node, "bias", Argument::none())),
       named("eps", arg_or(node, "eps", Argument::floating(1e-5)))},
      {node.outputs[0], Argument::tensor(mean), Argument::tensor(rstd)}, node));
  return rw;
}

// A global pool (every output size 1) is a mean over the spatial dims, which the XNNPACK
// partitioner delegates; any other size is the core op.
Result<Rewrite> adaptive_avg_pool(const Node& node, size_t spatial, const char* core_op) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const Argument* size = input_arg(node, "output_size");
  if (size == nullptr) return invalid_program(node.describe() + ": output_size is missing");
  Argument full = expand_list(*size, spatial);
  bool global = full.ints.size() == spatial;
  for (int64_t v : full.ints) global = global && v == 1;
  if (global) {
    std::vector<int64_t> dims;
    for (size_t d = 1; d <= spatial; ++d) dims.push_back(-static_cast<int64_t>(d));
    rw.nodes.push_back(make_op_node(
        "aten", "mean", "dim",
        {named("self", Argument::tensor(x)), named("dim", Argument::int_list(dims)),
         named("keepdim", Argument::boolean(true))},
        node.outputs, node));
    return rw;
  }
  rw.nodes.push_back(make_op_node("aten", core_op, "default",
                                  {named("self", Argument::tensor(x)), named("output_size", full)},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_adaptive_avg_pool2d(Graph& g, const Node& node) {
  (void)g;
  return adaptive_avg_pool(node, 2, "_adaptive_avg_pool2d");
}

Result<Rewrite> max_pool_with_indices(Graph& g, const Node& node, const char* with_indices,
                                      const char* indices_name) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const ValueId out = node_output(node);
  if (out == kNoValue) return invalid_program(node.describe() + ": output is not a tensor");
  EMBER_ASSIGN_OR_RETURN(ValueId indices,
                         new_tensor_like(g, x, indices_name, g.value(out).tensor.sizes));
  g.value(indices).tensor.dtype = ScalarType::Long;
  std::vector<NamedArgument> args = {named("self", Argument::tensor(x))};
  for (const char* name : {"kernel_size", "stride", "padding", "dilation", "ceil_mode"}) {
    if (const Argument* a = input_arg(node, name)) args.push_back(named(name, *a));
  }
  rw.nodes.push_back(make_op_node("aten", with_indices, "default", std::move(args),
                                  {node.outputs[0], Argument::tensor(indices)}, node));
  return rw;
}

Result<Rewrite> decompose_max_pool2d(Graph& g, const Node& node) {
  return max_pool_with_indices(g, node, "max_pool2d_with_indices", "max_pool2d_indices");
}

Result<Rewrite> decompose_max_pool3d(Graph& g, const Node& node) {
  return max_pool_with_indices(g, node, "max_pool3d_with_indices", "max_pool3d_indices");
}

Result<Rewrite> decompose_adaptive_avg_pool3d(Graph& g, const Node& node) {
  (void)g;
  return adaptive_avg_pool(node, 3, "_adaptive_avg_pool3d");
}

Result<Rewrite> decompose_dropout(Graph& g, const Node& node) {
  (void)g;
  const Argument* train = input_arg(node, "train");
  if (train != nullptr && train->kind == ArgKind::Bool && train->b) {
    return not_supported(node.describe() + ": dropout with train=True; export in eval() mode");
  }
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(rw.alias_of, tensor_input(node, "input"));
  return rw;
}

Result<Rewrite> decompose_relu6(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  rw.nodes.push_back(make_op_node("aten", "hardtanh", "default",
                                  {named("self", Argument::tensor(x)),
                                   named("min_val", Argument::floating(0.0)),
                                   named("max_val", Argument::floating(6.0))},
                                  node.outputs, node));
  return rw;
}

}  // namespace

void add_conv_norm_decompositions(DecompositionTable* table) {
  (*table)["aten::conv1d.default"] = &decompose_conv1d;
  (*table)["aten::conv2d.default"] = &decompose_conv2d;
  (*table)["aten::conv2d.padding"] = &decompose_conv2d_padding;
  (*table)["aten::conv3d.default"] = &decompose_conv3d;
  (*table)["aten::conv3d.padding"] = &decompose_conv3d_padding;
  (*table)["aten::batch_norm.default"] = &decompose_batch_norm;
  (*table)["aten::layer_norm.default"] = &decompose_layer_norm;
  (*table)["aten::max_pool2d.default"] = &decompose_max_pool2d;
  (*table)["aten::max_pool3d.default"] = &decompose_max_pool3d;
  (*table)["aten::adaptive_avg_pool3d.default"] = &decompose_adaptive_avg_pool3d;
  (*table)["aten::adaptive_avg_pool2d.default"] = &decompose_adaptive_avg_pool2d;
  (*table)["aten::dropout.default"] = &decompose_dropout;
  (*table)["aten::relu6.default"] = &decompose_relu6;
}

}  // namespace ember::aot
