// Decompositions of the remaining training-IR tensor ops torchvision models emit (issue #13):
//   chunk(x, n, d)            -> split.Tensor(x, ceil(size(d) / n), d)
//   swapaxes(x, a, b)         -> transpose.int(x, a, b)
//   expand_as(x, y)           -> expand(x, sizes of y)
//   new_zeros/new_ones(x, s)  -> zeros/ones(s, dtype of the result)
//   new_full(x, s, v)         -> full(s, v, dtype of the result)
//   pad(x, p, 'constant', v)  -> constant_pad_nd(x, p, v or 0)
//   pad(x, p, 'reflect' | 'replicate') -> reflection_pad{1,2}d / replication_pad{1,2}d
//   softmax.int / log_softmax.int (no dtype change) -> _softmax / _log_softmax(x, d, False)
//   zero(x)                   -> fill.Scalar(x, 0)
//   clamp_min(x, m)           -> clamp(x, m, None)
//   min.other / max.other(a, b) -> minimum / maximum(a, b)
//   zeros_like / ones_like(x) -> full_like(x, 0 | 1, dtype of the result)
//   _upsample_bilinear2d_aa.vec(x, size?, ac, scales?) -> .default(x, [OH, OW], ac, sh?, sw?)
//   grid_sampler(x, grid, mode, pad, ac) (4-D x) -> grid_sampler_2d(...)
//   rand_like / randn_like(x) -> rand / randn(result sizes, dtype of the result)
//   linalg_vector_norm(x, ord 2 | 1 | inf, dims, keepdim)
//        -> sqrt(sum(x * x)) | sum(abs(x)) | amax(abs(x)) over dims
#include <cmath>

#include "aot/passes/decompositions.h"
#include "aot/ir/graph_rewrite.h"

namespace ember::aot {
namespace {

NamedArgument named(const char* name, Argument a) { return {name, std::move(a), false}; }
NamedArgument kwarg(const char* name, Argument a) { return {name, std::move(a), true}; }

Argument arg_or(const Node& node, const char* name, Argument fallback) {
  const Argument* a = input_arg(node, name);
  return a == nullptr || a->kind == ArgKind::None ? fallback : *a;
}

int64_t wrap_dim(int64_t d, size_t rank) { return d < 0 ? d + static_cast<int64_t>(rank) : d; }

Result<Rewrite> decompose_chunk(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const TensorSpec& spec = g.value(x).tensor;
  const int64_t chunks = arg_or(node, "chunks", Argument::integer(1)).i;
  const int64_t dim = wrap_dim(arg_or(node, "dim", Argument::integer(0)).i, spec.rank());
  if (dim < 0 || static_cast<size_t>(dim) >= spec.rank() || chunks < 1) {
    return invalid_program(node.describe() + ": chunk dim or count out of range");
  }
  if (!spec.sizes[static_cast<size_t>(dim)].is_static) {
    return not_supported(node.describe() + ": chunk along a symbolic dim");
  }
  const int64_t size = spec.sizes[static_cast<size_t>(dim)].value;
  const int64_t split = std::max<int64_t>(1, (size + chunks - 1) / chunks);
  rw.nodes.push_back(make_op_node("aten", "split", "Tensor",
                                  {named("self", Argument::tensor(x)),
                                   named("split_size", Argument::integer(split)),
                                   named("dim", Argument::integer(dim))},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_swapaxes(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  rw.nodes.push_back(make_op_node("aten", "transpose", "int",
                                  {named("self", Argument::tensor(x)),
                                   named("dim0", arg_or(node, "axis0", Argument::integer(0))),
                                   named("dim1", arg_or(node, "axis1", Argument::integer(0)))},
                                  node.outputs, node));
  return rw;
}

// The static sizes of `v`, or NotSupported naming the node.
Result<std::vector<int64_t>> static_sizes(const Graph& g, ValueId v, const Node& node) {
  std::vector<int64_t> out;
  for (const SymInt& s : g.value(v).tensor.sizes) {
    if (!s.is_static) return not_supported(node.describe() + ": symbolic sizes");
    out.push_back(s.value);
  }
  return out;
}

Result<Rewrite> decompose_expand_as(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, static_sizes(g, node_output(node), node));
  rw.nodes.push_back(make_op_node("aten", "expand", "default",
                                  {named("self", Argument::tensor(x)),
                                   named("size", Argument::int_list(sizes))},
                                  node.outputs, node));
  return rw;
}

// new_zeros / new_ones / new_full: the factory with the result's dtype (the out tensor
// carries dtype and sizes once out variants are made).
Result<Rewrite> new_factory(Graph& g, const Node& node, const char* factory, bool with_value) {
  Rewrite rw;
  ValueId out = node_output(node);
  if (out == kNoValue) return invalid_program(node.describe() + ": needs a tensor result");
  const Argument* size = input_arg(node, "size");
  if (size == nullptr) return invalid_program(node.describe() + ": size is missing");
  std::vector<NamedArgument> inputs = {named("size", *size)};
  if (with_value) inputs.push_back(named("fill_value", arg_or(node, "fill_value", Argument::integer(0))));
  inputs.push_back(kwarg("dtype", Argument::scalar_type(g.value(out).tensor.dtype)));
  rw.nodes.push_back(make_op_node("aten", factory, "default", inputs, node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_new_zeros(Graph& g, const Node& node) { return new_factory(g, node, "zeros", false); }
Result<Rewrite> decompose_new_ones(Graph& g, const Node& node) { return new_factory(g, node, "ones", false); }
Result<Rewrite> decompose_new_full(Graph& g, const Node& node) { return new_factory(g, node, "full", true); }

Result<Rewrite> decompose_pad(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const Argument pad = arg_or(node, "pad", Argument::int_list({}));
  const std::string mode = arg_or(node, "mode", Argument::string("constant")).s;
  if (mode == "constant") {
    const Argument* v = input_arg(node, "value");
    Argument value = v == nullptr || v->kind == ArgKind::None ? Argument::floating(0.0) : *v;
    rw.nodes.push_back(make_op_node("aten", "constant_pad_nd", "default",
                                    {named("self", Argument::tensor(x)), named("pad", pad),
                                     named("value", value)},
                                    node.outputs, node));
    return rw;
  }
  const size_t spatial = pad.ints.size() / 2;
  const size_t rank = g.value(x).tensor.rank();
  if ((mode != "reflect" && mode != "replicate") || (spatial != 1 && spatial != 2) ||
      rank < spatial + 1) {
    return not_supported(node.describe() + ": pad mode '" + mode + "' over " +
                         std::to_string(spatial) + " dim(s) (constant any; reflect and replicate "
                         "over 1 or 2 dims)");
  }
  const std::string op = std::string(mode == "reflect" ? "reflection_pad" : "replication_pad") +
                         std::to_string(spatial) + "d";
  rw.nodes.push_back(make_op_node("aten", op, "default",
                                  {named("self", Argument::tensor(x)), named("padding", pad)},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> softmax_like(Graph& g, const Node& node, const char* core) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  ValueId out = node_output(node);
  if (g.value(out).tensor.dtype != g.value(x).tensor.dtype) {
    return not_supported(node.describe() + ": softmax with a dtype change");
  }
  rw.nodes.push_back(make_op_node("aten", core, "default",
                                  {named("self", Argument::tensor(x)),
                                   named("dim", arg_or(node, "dim", Argument::integer(-1))),
                                   named("half_to_float", Argument::boolean(false))},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_softmax(Graph& g, const Node& node) { return softmax_like(g, node, "_softmax"); }
Result<Rewrite> decompose_log_softmax(Graph& g, const Node& node) {
  return softmax_like(g, node, "_log_softmax");
}

Result<Rewrite> decompose_zero(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  rw.nodes.push_back(make_op_node("aten", "fill", "Scalar",
                                  {named("self", Argument::tensor(x)),
                                   named("value", Argument::integer(0))},
                                  node.outputs, node));
  return rw;
}

// Python's operators on tensors (`a & b` in Hugging Face's mask code): the named ATen op.
template <const char* kName>
Result<Rewrite> decompose_dunder(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  const Argument* other = input_arg(node, "other");
  if (other == nullptr) return invalid_program(node.describe() + ": 'other' is missing");
  rw.nodes.push_back(make_op_node("aten", kName, node.op.overload,
                                  {named("self", Argument::tensor(x)), named("other", *other)},
                                  node.outputs, node));
  return rw;
}
// min.other / max.other (torch.min(a, b), T5's relative position buckets): the elementwise
// minimum / maximum, same semantics (NaN propagates), which have portable kernels.
template <const char* kName>
Result<Rewrite> decompose_binary_default(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  EMBER_ASSIGN_OR_RETURN(ValueId y, tensor_input(node, "other"));
  rw.nodes.push_back(make_op_node("aten", kName, "default",
                                  {named("self", Argument::tensor(x)), named("other", Argument::tensor(y))},
                                  node.outputs, node));
  return rw;
}
constexpr char kMinimum[] = "minimum";
constexpr char kMaximum[] = "maximum";
constexpr char kBitwiseAnd[] = "bitwise_and";
constexpr char kBitwiseOr[] = "bitwise_or";
constexpr char kBitwiseXor[] = "bitwise_xor";

// where.ScalarOther / ScalarSelf / Scalar -> where.self with the scalars as wrapped numbers
// (ScalarToTensorPass makes them 0-dim tensors of the result's dtype).
Result<Rewrite> decompose_where_scalar(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  const Argument* cond = input_arg(node, "condition");
  const Argument* self = input_arg(node, "self");
  const Argument* other = input_arg(node, "other");
  if (cond == nullptr || self == nullptr || other == nullptr) {
    return invalid_program(node.describe() + ": needs condition, self and other");
  }
  rw.nodes.push_back(
      make_op_node("aten", "where", "self",
                   {named("condition", *cond), named("self", *self), named("other", *other)},
                   node.outputs, node));
  return rw;
}

// Appends `op`(x) (unary, same shape) and returns its result.
Result<ValueId> unary(Graph& g, const char* op, const char* ovl, std::vector<NamedArgument> args,
                      ValueId like, const std::vector<SymInt>& sizes, const Node& node,
                      Rewrite* rw) {
  EMBER_ASSIGN_OR_RETURN(ValueId y, new_tensor_like(g, like, node.name + "_" + op, sizes));
  rw->nodes.push_back(make_op_node("aten", op, ovl, std::move(args), {Argument::tensor(y)}, node));
  return y;
}

Result<Rewrite> decompose_vector_norm(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  ValueId out = node_output(node);
  const Argument ord_arg = arg_or(node, "ord", Argument::floating(2.0));
  const double ord = ord_arg.kind == ArgKind::Int ? static_cast<double>(ord_arg.i) : ord_arg.f;
  const Argument* dtype = input_arg(node, "dtype");
  if (dtype != nullptr && dtype->kind != ArgKind::None) {
    return not_supported(node.describe() + ": linalg_vector_norm with dtype");
  }
  const bool inf = std::isinf(ord) && ord > 0;
  if (ord != 2.0 && ord != 1.0 && !inf) {
    return not_supported(node.describe() + ": linalg_vector_norm of order " +
                         std::to_string(ord) + " (1, 2 and inf are lowered)");
  }
  const std::vector<SymInt>& xs = g.value(x).tensor.sizes;
  ValueId t = x;
  if (ord == 2.0) {
    EMBER_ASSIGN_OR_RETURN(t, unary(g, "mul", "Tensor", {named("self", Argument::tensor(x)),
                                                         named("other", Argument::tensor(x))},
                                    x, xs, node, &rw));
  } else {
    EMBER_ASSIGN_OR_RETURN(t, unary(g, "abs", "default", {named("self", Argument::tensor(x))}, x,
                                    xs, node, &rw));
  }
  Argument dims = arg_or(node, "dim", Argument::none());
  const Argument keepdim = arg_or(node, "keepdim", Argument::boolean(false));
  const std::vector<SymInt>& os = g.value(out).tensor.sizes;
  if (inf) {
    if (dims.kind == ArgKind::None) dims = Argument::int_list({});
    rw.nodes.push_back(make_op_node("aten", "amax", "default",
                                    {named("self", Argument::tensor(t)), named("dim", dims),
                                     named("keepdim", keepdim)},
                                    node.outputs, node));
    return rw;
  }
  std::vector<NamedArgument> sum_args = {named("self", Argument::tensor(t)), named("dim", dims),
                                         named("keepdim", keepdim)};
  if (ord == 1.0) {
    rw.nodes.push_back(make_op_node("aten", "sum", "dim_IntList", sum_args, node.outputs, node));
    return rw;
  }
  EMBER_ASSIGN_OR_RETURN(ValueId s, unary(g, "sum", "dim_IntList", sum_args, x, os, node, &rw));
  rw.nodes.push_back(make_op_node("aten", "sqrt", "default", {named("self", Argument::tensor(s))},
                                  node.outputs, node));
  return rw;
}

// clamp_min(x, m) -> clamp(x, m, None): the portable library has clamp.out only.
Result<Rewrite> decompose_clamp_min(Graph& g, const Node& node) {
  (void)g;
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  rw.nodes.push_back(make_op_node("aten", "clamp", "default",
                                  {named("self", Argument::tensor(x)),
                                   named("min", arg_or(node, "min", Argument::none())),
                                   named("max", Argument::none())},
                                  node.outputs, node));
  return rw;
}

// zeros_like / ones_like(x, dtype?) -> full_like(x, 0 | 1, dtype of the result).
Result<Rewrite> like_factory(Graph& g, const Node& node, int64_t value) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "self"));
  ValueId out = node_output(node);
  if (out == kNoValue) return invalid_program(node.describe() + ": needs a tensor result");
  rw.nodes.push_back(make_op_node(
      "aten", "full_like", "default",
      {named("self", Argument::tensor(x)), named("fill_value", Argument::integer(value)),
       kwarg("dtype", Argument::scalar_type(g.value(out).tensor.dtype))},
      node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_zeros_like(Graph& g, const Node& node) { return like_factory(g, node, 0); }
Result<Rewrite> decompose_ones_like(Graph& g, const Node& node) { return like_factory(g, node, 1); }

// _upsample_bilinear2d_aa.vec(x, size?, ac, scales?) -> .default(x, [OH, OW], ac, sh, sw).
Result<Rewrite> decompose_upsample_aa_vec(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> out, static_sizes(g, node_output(node), node));
  if (out.size() != 4) return not_supported(node.describe() + ": antialiased upsampling of a non-4-D tensor");
  const Argument scales = arg_or(node, "scale_factors", Argument::none());
  const bool has_scales = scales.kind == ArgKind::FloatList && scales.floats.size() == 2;
  rw.nodes.push_back(make_op_node(
      "aten", "_upsample_bilinear2d_aa", "default",
      {named("self", Argument::tensor(x)), named("output_size", Argument::int_list({out[2], out[3]})),
       named("align_corners", arg_or(node, "align_corners", Argument::boolean(false))),
       named("scales_h", has_scales ? Argument::floating(scales.floats[0]) : Argument::none()),
       named("scales_w", has_scales ? Argument::floating(scales.floats[1]) : Argument::none())},
      node.outputs, node));
  return rw;
}

// grid_sampler(x, grid, ...) on a 4-D input -> grid_sampler_2d(x, grid, ...).
Result<Rewrite> decompose_grid_sampler(Graph& g, const Node& node) {
  Rewrite rw;
  EMBER_ASSIGN_OR_RETURN(ValueId x, tensor_input(node, "input"));
  if (g.value(x).tensor.rank() != 4) {
    return not_supported(node.describe() + ": grid_sampler on a " +
                         std::to_string(g.value(x).tensor.rank()) + "-D input (4-D is lowered)");
  }
  std::vector<NamedArgument> args;
  for (const NamedArgument& a : node.inputs) args.push_back({a.name, a.arg, false});
  rw.nodes.push_back(make_op_node("aten", "grid_sampler_2d", "default", args, node.outputs, node));
  return rw;
}

// rand_like / randn_like(x) -> rand / randn(sizes of the result, dtype of the result).
Result<Rewrite> random_like(Graph& g, const Node& node, const char* factory) {
  Rewrite rw;
  ValueId out = node_output(node);
  if (out == kNoValue) return invalid_program(node.describe() + ": needs a tensor result");
  EMBER_ASSIGN_OR_RETURN(std::vector<int64_t> sizes, static_sizes(g, out, node));
  rw.nodes.push_back(make_op_node("aten", factory, "default",
                                  {named("size", Argument::int_list(sizes)),
                                   kwarg("dtype", Argument::scalar_type(g.value(out).tensor.dtype))},
                                  node.outputs, node));
  return rw;
}

Result<Rewrite> decompose_rand_like(Graph& g, const Node& node) { return random_like(g, node, "rand"); }
Result<Rewrite> decompose_randn_like(Graph& g, const Node& node) { return random_like(g, node, "randn"); }

}  // namespace

void add_tensor_op_decompositions(DecompositionTable* table) {
  (*table)["aten::chunk.default"] = &decompose_chunk;
  (*table)["aten::swapaxes.default"] = &decompose_swapaxes;
  (*table)["aten::expand_as.default"] = &decompose_expand_as;
  (*table)["aten::new_zeros.default"] = &decompose_new_zeros;
  (*table)["aten::new_ones.default"] = &decompose_new_ones;
  (*table)["aten::new_full.default"] = &decompose_new_full;
  (*table)["aten::pad.default"] = &decompose_pad;
  (*table)["aten::softmax.int"] = &decompose_softmax;
  (*table)["aten::log_softmax.int"] = &decompose_log_softmax;
  (*table)["aten::zero.default"] = &decompose_zero;
  (*table)["aten::__and__.Tensor"] = &decompose_dunder<kBitwiseAnd>;
  (*table)["aten::__and__.Scalar"] = &decompose_dunder<kBitwiseAnd>;
  (*table)["aten::__or__.Tensor"] = &decompose_dunder<kBitwiseOr>;
  (*table)["aten::__or__.Scalar"] = &decompose_dunder<kBitwiseOr>;
  (*table)["aten::__xor__.Tensor"] = &decompose_dunder<kBitwiseXor>;
  (*table)["aten::__xor__.Scalar"] = &decompose_dunder<kBitwiseXor>;
  (*table)["aten::min.other"] = &decompose_binary_default<kMinimum>;
  (*table)["aten::max.other"] = &decompose_binary_default<kMaximum>;
  (*table)["aten::where.ScalarOther"] = &decompose_where_scalar;
  (*table)["aten::where.ScalarSelf"] = &decompose_where_scalar;
  (*table)["aten::where.Scalar"] = &decompose_where_scalar;
  (*table)["aten::linalg_vector_norm.default"] = &decompose_vector_norm;
  (*table)["aten::clamp_min.default"] = &decompose_clamp_min;
  (*table)["aten::zeros_like.default"] = &decompose_zeros_like;
  (*table)["aten::ones_like.default"] = &decompose_ones_like;
  (*table)["aten::_upsample_bilinear2d_aa.vec"] = &decompose_upsample_aa_vec;
  (*table)["aten::grid_sampler.default"] = &decompose_grid_sampler;
  (*table)["aten::rand_like.default"] = &decompose_rand_like;
  (*table)["aten::randn_like.default"] = &decompose_randn_like;
}

}  // namespace ember::aot
