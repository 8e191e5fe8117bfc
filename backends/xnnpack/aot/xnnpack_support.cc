// xnnpack_support (see xnnpack_support.h): per-op attribute checks after common tensor checks.
#include "backends/xnnpack/aot/xnnpack_support.h"

#include <algorithm>
#include <functional>
#include <initializer_list>
#include <map>
#include <set>
#include <utility>

#include "aot/ir/graph_util.h"
#include "aot/ir/op_schema.h"
#include "aot/quantize/qdq.h"
#include "backends/xnnpack/aot/serialize_context.h"

namespace ember::backends::xnnpack {

using aot::Support;
using aot::ValueId;

namespace {

// Ops XNNPACK 0.0~git20241108 has no operator for, each with the reason the delegation
// report prints.
const std::pair<const char*, const char*> kMissing[] = {
    {"erf", "XNNPACK has no erf operator (gelu with approximate='none' is delegated whole)"},
    {"pow", "XNNPACK's pow is experimental and has no node in the XNNPACK payload schema"},
    {"index", "a gather: XNNPACK has no gather operator"},
    {"embedding", "a gather: XNNPACK has no gather operator"},
    {"full_like", "makes a tensor from a scalar: XNNPACK has no fill operator"},
    {"scalar_tensor", "makes a tensor from a scalar: XNNPACK has no fill operator"},
    {"full", "a factory (a tensor filled with a scalar): XNNPACK has no fill operator"},
    {"zeros", "a factory (a tensor filled with a scalar): XNNPACK has no fill operator"},
    {"ones", "a factory (a tensor filled with a scalar): XNNPACK has no fill operator"},
    {"arange", "a factory (an index sequence, usually int64 for masks or positions): XNNPACK "
               "has no iota operator"},
    {"gather", "a gather: XNNPACK has no gather operator"},
    {"bitwise_and", "combines bool or integer masks: XNNPACK has no boolean or integer datatype"},
    {"bitwise_or", "combines bool or integer masks: XNNPACK has no boolean or integer datatype"},
    {"_to_copy", "a dtype conversion (in exported models: of int64 or bool masks and indices): "
                 "XNNPACK has no integer or boolean datatype"},
    {"im2col", "nn.Unfold: XNNPACK has no im2col operator"},
    {"col2im", "nn.Fold: XNNPACK has no col2im operator"},
};
// Ops on bool tensors: XNNPACK (and the delegate's schema) has no boolean datatype.
const char* const kBool[] = {"where", "any", "all", "eq", "ne", "lt", "le", "gt", "ge", "logical_not",
                             "logical_and", "logical_or", "bitwise_not", "masked_fill"};

std::string short_name(const aot::Node& n) { return n.op.name; }

// Ops whose lowering does not bake a dynamic dim's size into the XNNGraph: the runtime half
// infers every value's shape from the actual inputs and re-plans (docs/dynamic_shapes.md).
// Reshape-like ops and layer_norm also need at most one dynamic dim in their output (a static
// reshape infers one); expand only as an identity.
bool dynamic_ok(const std::string& q) {
  static const std::set<std::string> kOps = {
      "aten::add.Tensor", "aten::sub.Tensor", "aten::add.Scalar", "aten::sub.Scalar", "aten::mul.Tensor",
      "aten::mul.Scalar", "aten::div.Tensor", "aten::div.Scalar", "aten::maximum.default",
      "aten::minimum.default", "aten::relu.default", "aten::hardtanh.default", "aten::clamp.default",
      "aten::sigmoid.default", "aten::hardswish.default", "aten::leaky_relu.default", "aten::elu.default",
      "aten::neg.default", "aten::abs.default", "aten::floor.default", "aten::ceil.default",
      "aten::sqrt.default", "aten::gelu.default", "aten::tanh.default", "aten::exp.default",
      "aten::log.default", "aten::sin.default", "aten::cos.default", "aten::rsqrt.default",
      "aten::_softmax.default", "aten::softmax.int", "aten::addmm.default", "aten::mm.default",
      "aten::bmm.default", "aten::linear.default", "aten::permute.default", "aten::permute_copy.default",
      "aten::transpose.int", "aten::view.default", "aten::_unsafe_view.default", "aten::reshape.default",
      "aten::view_copy.default", "aten::squeeze.dims", "aten::squeeze.dim", "aten::squeeze.default",
      "aten::unsqueeze.default", "aten::flatten.using_ints", "aten::squeeze_copy.dims",
      "aten::unsqueeze_copy.default", "aten::clone.default", "aten::alias.default",
      "aten::alias_copy.default", "aten::detach.default", "aten::expand.default",
      "aten::expand_copy.default", "aten::native_layer_norm.default", "aten::cat.default"};
  return kOps.count(q) != 0;
}

bool reshape_like(const std::string& name) {
  return name == "view" || name == "_unsafe_view" || name == "reshape" || name == "view_copy" ||
         name == "squeeze" || name == "unsqueeze" || name == "flatten" || name == "squeeze_copy" ||
         name == "unsqueeze_copy" || name == "native_layer_norm";
}

size_t dynamic_dims(const aot::TensorSpec& t) {
  size_t n = 0;
  for (const aot::SymInt& d : t.sizes) n += d.is_static ? 0 : 1;
  return n;
}

// A size with an unbacked symbol (u0: nonzero, masked_select, unique, item) whose range
// reaches 0: the delegate would see an empty tensor at run time, which XNNPACK refuses.
bool may_be_empty_data_dependent(const aot::SymInt& d) {
  if (d.is_static || d.range.min.value_or(0) > 0) return false;
  aot::Result<aot::SymExpr> e = aot::parse_sym_expr(d.expr);
  if (!e.ok()) return false;
  for (const std::string& s : e->symbols()) {
    if (s.size() > 1 && s[0] == 'u' && s.find_first_not_of("0123456789", 1) == std::string::npos) return true;
  }
  return false;
}

std::string check_tensor(const aot::Graph& g, ValueId v, const std::string& what, bool allow_dynamic = false) {
  if (!g.valid_id(v) || g.value(v).kind != aot::ValueKind::Tensor) return what + " is not a tensor";
  const aot::TensorSpec& t = g.value(v).tensor;
  if (t.dtype != aot::ScalarType::Float) return what + " is " + aot::to_string(t.dtype) + " (only f32)";
  if (!t.is_static() && !allow_dynamic) {
    return what + " has a dynamic shape " + t.to_string() + " (static shapes only for this op)";
  }
  for (const aot::SymInt& d : t.sizes) {
    // A static 0 beside dynamic dims (a zero-width slice concatenated with a growing one):
    // the 2024 XNNPACK refuses empty tensors at init, whatever the other dims are.
    if (d.is_static && d.value == 0) return what + " " + t.to_string() + " is empty (XNNPACK cannot run empty tensors)";
    if (!d.is_static && !d.range.max) return what + " has a dynamic dim without an upper bound " + t.to_string();
    if (may_be_empty_data_dependent(d)) {
      return what + " " + t.to_string() + " can be empty (data-dependent size " + d.text + " in " +
             d.range.to_string() + "; XNNPACK cannot run empty tensors)";
    }
  }
  if (!t.is_static()) return t.rank() > 6 ? what + " has rank " + std::to_string(t.rank()) + " (1..6)" : "";
  const bool scalar_constant = t.rank() == 0 && t.constant != nullptr;  // broadcast operand
  if ((t.rank() == 0 && !scalar_constant) || t.rank() > 6) {
    return what + " has rank " + std::to_string(t.rank()) + " (1..6)";
  }
  if (t.static_numel() == 0) return what + " is empty";
  return "";
}

// The first output (each tensor of a list output, as split's) must pass check_tensor.
std::string check_outputs(const aot::Node& n, const aot::Graph& g, bool allow_dynamic) {
  if (n.outputs.empty()) return "output is not a tensor";
  const aot::Argument& out = n.outputs[0];
  if (out.kind != aot::ArgKind::TensorList) {
    std::string why = check_tensor(g, output_tensor(n, 0), "output", allow_dynamic);
    if (why.empty() && allow_dynamic && reshape_like(n.op.name) &&
        dynamic_dims(g.value(output_tensor(n, 0)).tensor) > 1) {
      why = "output has more than one dynamic dim " + g.value(output_tensor(n, 0)).tensor.to_string() +
            " (a static reshape infers one)";
    }
    return why;
  }
  for (size_t k = 0; k < out.values.size(); ++k) {
    if (out.values[k] == aot::kNoValue) continue;
    std::string why = check_tensor(g, out.values[k], "output " + std::to_string(k));
    if (!why.empty()) return why;
  }
  return out.values.empty() ? "output is an empty list" : "";
}

// The name of the mutated buffer/parameter v is, or "" (constants get baked into the blob,
// so a value that changes between runs must stay outside).
std::string mutated_state(const aot::Graph& g, ValueId v) {
  const auto& sig = g.signature();
  for (size_t i = 0; i < g.inputs().size() && i < sig.inputs.size(); ++i) {
    if (g.inputs()[i].value() != v) continue;
    for (const aot::OutputSpec& o : sig.outputs) {
      if ((o.kind == aot::OutputKind::BufferMutation || o.kind == aot::OutputKind::ParameterMutation) &&
          o.target == sig.inputs[i].target) {
        return o.target;
      }
    }
  }
  return "";
}

bool used(const aot::Graph& g, ValueId v) {
  aot::ValueUses u = aot::compute_uses(g);
  return !u.node_users[size_t(v)].empty() || u.is_graph_output[size_t(v)];
}

// A constant, or a constant dequantized by a quantized_decomposed node (PT2E weights).
bool is_const(const aot::Graph& g, ValueId v) {
  if (v == aot::kNoValue) return false;
  if (g.value(v).tensor.constant != nullptr) return true;
  for (const aot::Node& n : g.nodes()) {
    if (output_tensor(n) != v) continue;
    const ValueId in = input_tensor(n, "input");
    return aot::is_quantized_decomposed(n) && n.op.name.rfind("dequantize", 0) == 0 &&
           in != aot::kNoValue && g.value(in).tensor.constant != nullptr;
  }
  return false;
}

// Quantize / dequantize nodes: static int8 per tensor (XNNConvert, or folded into the int8
// operator next to them) and int8 constant weights, per tensor or per channel.
Support qdq_support(const aot::Node& n, const aot::Graph& g) {
  aot::Result<aot::QuantParams> r = aot::read_qdq(g, n);
  if (!r.ok()) return Support::no(aot::last_error_message());
  const aot::QuantParams& p = r.get();
  if (p.kind == aot::QdqKind::ChooseQParams || p.granularity == aot::QdqGranularity::PerTensorDynamic) {
    return Support::no(short_name(n) +
                       ": dynamically quantized q/dq nodes are not read (the "
                       "xnnpack-dq-* recipes quantize linear layers dynamically instead)");
  }
  if (p.dtype != aot::ScalarType::Char) {
    return Support::no(short_name(n) + ": " + aot::to_string(p.dtype) + " storage (int8 only)");
  }
  const bool constant = g.value(p.input).tensor.constant != nullptr;
  if (p.kind == aot::QdqKind::Quantize && p.granularity != aot::QdqGranularity::PerTensor) {
    return Support::no(short_name(n) + ": per-channel quantize of an activation");
  }
  if (p.kind == aot::QdqKind::Dequantize && !constant && p.granularity != aot::QdqGranularity::PerTensor) {
    return Support::no(short_name(n) + ": per-channel dequantize of an activation");
  }
  if (p.kind == aot::QdqKind::Dequantize && p.out_dtype != aot::ScalarType::Float) {
    return Support::no(short_name(n) + ": dequantize to " + aot::to_string(p.out_dtype) + " (only f32)");
  }
  const ValueId f32 = p.kind == aot::QdqKind::Quantize ? p.input : p.output;
  std::string why = check_tensor(g, f32, p.kind == aot::QdqKind::Quantize ? "input" : "output");
  if (why.empty() && !g.value(f32 == p.input ? p.output : p.input).tensor.is_static()) {
    why = "int8 tensor has a dynamic shape";
  }
  if (!why.empty()) return Support::no(short_name(n) + ": " + why);
  return Support::yes();
}

int64_t norm_dim(int64_t d, size_t rank) { return d < 0 ? d + int64_t(rank) : d; }

using Check = std::function<std::string(const aot::Node&, const aot::Graph&)>;

std::string check_conv(const aot::Node& n, const aot::Graph& g) {
  if (input_bool(n, "transposed", false)) return "transposed convolution is not serialized to XNNPACK";
  ValueId w = input_tensor(n, "weight"), b = input_tensor(n, "bias");
  const size_t conv_rank = g.value(input_tensor(n, "input")).tensor.rank();
  if (conv_rank == 3) {
    return "a 1-D convolution (3-D input): XNNPACK's are 2-D and this one is not yet lowered as "
           "one over [N, C, 1, L]";
  }
  if (conv_rank == 5) return "a 3-D convolution (5-D input): XNNPACK has 2-D convolutions only";
  if (conv_rank != 4) return "only 2-D convolution (4-D input)";
  if (!is_const(g, w)) return "weight is not a constant";
  if (b != aot::kNoValue && !is_const(g, b)) return "bias is not a constant";
  return "";
}

std::string check_bn(const aot::Node& n, const aot::Graph& g) {
  for (const char* a : {"weight", "bias", "running_mean", "running_var"}) {
    ValueId v = input_tensor(n, a);
    if ((v != aot::kNoValue || a[0] == 'r') && !is_const(g, v)) return std::string(a) + " is not a constant";
  }
  for (size_t k = 1; k < n.outputs.size(); ++k) {
    ValueId v = output_tensor(n, k);
    if (v != aot::kNoValue && used(g, v)) return "saved mean/invstd outputs are used";
  }
  if (g.value(input_tensor(n, "input")).tensor.rank() < 2) return "input rank < 2";
  return "";
}

std::string check_alpha(const aot::Node& n, const aot::Graph&) {
  if (input_double(n, "alpha", 1.0) != 1.0) return n.op.name + " with alpha \u2260 1 (XNNPACK has no alpha; upstream ignored it, ExecuTorch #11683)";
  return "";
}

std::string check_addmm(const aot::Node& n, const aot::Graph&) {
  if (input_double(n, "beta", 1.0) != 1.0 || input_double(n, "alpha", 1.0) != 1.0) {
    return "addmm with beta or alpha != 1";
  }
  return "";
}

// A linear whose weight is a constant also read by a node the delegate does not take (a tied
// embedding / output matrix, after TiedLinearPass) stays in the program: the delegate would
// store its own copy (named data) beside the program's constant, twice the bytes on disk and in
// memory (XNNPACK also packs it). The portable linear.out reads the one constant as stored.
std::string check_linear(const aot::Node& n, const aot::Graph& g) {
  const ValueId w = input_tensor(n, "weight");
  if (w == aot::kNoValue || g.value(w).tensor.constant == nullptr) return "";
  for (const aot::Node& m : g.nodes()) {
    if (&m == &n || m.op.name == "linear" || m.op.name == "mm" || m.op.name == "addmm" ||
        m.op.name == "permute" || m.op.name == "permute_copy" || m.op.name == "t") {
      continue;
    }
    bool reads = false;
    for (const aot::NamedArgument& in : m.inputs) {
      aot::for_each_value(in.arg, [&](ValueId v) { reads = reads || v == w; });
    }
    if (reads && !xnnpack_support(m, g).supported) {
      return "its weight '" + g.value(w).name + "' is also read by " + m.op.name +
             ", which stays outside the delegate (a tied matrix): kept in the program so it is "
             "stored once";
    }
  }
  return "";
}

std::string check_pool(const aot::Node& n, const aot::Graph& g) {
  if (g.value(input_tensor(n, "self")).tensor.rank() != 4) return "only 4-D (NCHW) input";
  if (n.op.name == "max_pool2d_with_indices" && used(g, output_tensor(n, 1))) return "indices output is used";
  if (n.op.name == "avg_pool2d") {
    if (input_bool(n, "ceil_mode", false)) return "avg_pool2d with ceil_mode";
    const aot::NamedArgument* d = n.find_input("divisor_override");
    if (d != nullptr && d->arg.kind != aot::ArgKind::None) return "avg_pool2d with divisor_override";
    std::vector<int64_t> pad = input_ints(n, "padding", {0});
    bool padded = std::any_of(pad.begin(), pad.end(), [](int64_t p) { return p != 0; });
    if (padded && input_bool(n, "count_include_pad", true)) {
      return "avg_pool2d with padding and count_include_pad (XNNPACK excludes padding)";
    }
  }
  return "";
}

std::string check_mean(const aot::Node& n, const aot::Graph& g) {
  const size_t r = g.value(input_tensor(n, "self")).tensor.rank();
  std::vector<int64_t> dims = input_ints(n, "dim", {});
  const aot::NamedArgument* dt = n.find_input("dtype");
  if (dt != nullptr && dt->arg.kind != aot::ArgKind::None) return "mean with a dtype";
  if (r != 4 || dims.size() != 2) return "mean only over H and W of a 4-D tensor";
  int64_t a = norm_dim(dims[0], r), b = norm_dim(dims[1], r);
  if (std::min(a, b) != 2 || std::max(a, b) != 3) return "mean only over H and W of a 4-D tensor";
  return "";
}

std::string check_adaptive(const aot::Node& n, const aot::Graph& g) {
  if (g.value(input_tensor(n, "self")).tensor.rank() != 4) return "only 4-D input";
  std::vector<int64_t> o = input_ints(n, "output_size", {});
  if (o.size() != 2 || o[0] != 1 || o[1] != 1) return "adaptive_avg_pool2d only to 1x1";
  return "";
}

std::string check_softmax(const aot::Node& n, const aot::Graph&) {
  if (input_bool(n, "half_to_float", false)) return "softmax with half_to_float";
  return "";
}

std::string check_elu(const aot::Node& n, const aot::Graph&) {
  if (input_double(n, "scale", 1.0) != 1.0 || input_double(n, "input_scale", 1.0) != 1.0) {
    return "elu with scale or input_scale != 1";
  }
  return "";
}

std::string check_pow(const aot::Node& n, const aot::Graph&) {
  const aot::NamedArgument* e = n.find_input("exponent");
  const bool number = e != nullptr && (e->arg.kind == aot::ArgKind::Int || e->arg.kind == aot::ArgKind::Float);
  const double v = !number ? 0.0 : e->arg.kind == aot::ArgKind::Int ? double(e->arg.i) : e->arg.f;
  if (number && (v == 2.0 || v == 3.0)) return "";
  return "pow with an exponent other than 2 or 3: XNNPACK's pow is experimental and has no node "
         "in the XNNPACK payload schema (2 and 3 are lowered as multiplies)";
}

std::string check_clamp(const aot::Node& n, const aot::Graph&) {
  for (const char* a : {"min", "max"}) {
    const aot::NamedArgument* v = n.find_input(a);
    if (v != nullptr && v->arg.kind != aot::ArgKind::None && v->arg.kind != aot::ArgKind::Int &&
        v->arg.kind != aot::ArgKind::Float) {
      return "clamp with a non-constant bound";
    }
  }
  return "";
}

// Broadcasting (and dims added in front) becomes a multiply by ones; size-1 dims only.
std::string check_expand(const aot::Node& n, const aot::Graph& g) {
  const auto& a = g.value(input_tensor(n, "self")).tensor.sizes;
  const auto& b = g.value(output_tensor(n)).tensor.sizes;
  if (a.size() > b.size()) return "expand to a lower rank";
  const size_t lead = b.size() - a.size();
  bool dynamic = false;
  for (const aot::SymInt& d : b) dynamic = dynamic || !d.is_static;
  if (dynamic) {  // only as an identity: the same dims, dynamic ones by the same expression
    if (lead != 0) return "expand of a dynamic shape that adds dims";
    for (size_t i = 0; i < a.size(); ++i) {
      if (a[i].is_static != b[i].is_static || (a[i].is_static ? a[i].value != b[i].value : a[i].expr != b[i].expr)) {
        return "expand that broadcasts a dynamic shape";
      }
    }
    return "";
  }
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].value != b[lead + i].value && a[i].value != 1) return "expand of a dim that is not 1";
  }
  return "";
}

std::string check_gelu(const aot::Node& n, const aot::Graph&) {
  const aot::NamedArgument* a = n.find_input("approximate");
  if (a != nullptr && a->arg.kind == aot::ArgKind::String && a->arg.s != "none") {
    return "gelu with approximate='" + a->arg.s + "' (the delegate's kernel is the exact erf form)";
  }
  return "";
}

// Normalised over the trailing dims, constant (or absent) weight and bias, mean/rstd unused.
std::string check_layer_norm(const aot::Node& n, const aot::Graph& g) {
  const size_t r = g.value(input_tensor(n, "input")).tensor.rank();
  const size_t k = input_ints(n, "normalized_shape", {}).size();
  if (k == 0 || k > r) return "normalized_shape must name 1..rank trailing dims";
  const auto& sizes = g.value(input_tensor(n, "input")).tensor.sizes;
  for (size_t i = r - k; i < r; ++i) {
    if (!sizes[i].is_static) return "normalized dims must be static";
  }
  for (const char* a : {"weight", "bias"}) {
    ValueId v = input_tensor(n, a);
    if (v != aot::kNoValue && !is_const(g, v)) return std::string(a) + " is not a constant";
  }
  for (size_t k2 = 1; k2 < n.outputs.size(); ++k2) {
    ValueId v = output_tensor(n, k2);
    if (v != aot::kNoValue && used(g, v)) return "mean/rstd outputs are used";
  }
  return "";
}

// `scale_factors` / `scales_h`, `scales_w`, when given, must equal output / input: PyTorch
// then samples at 1 / scale, which is what XNNPACK (input / output) computes.
std::string check_upsample_scales(const aot::Node& n, const aot::Graph& g) {
  const auto& in = g.value(upsample_input(n)).tensor.sizes;
  const auto& out = g.value(output_tensor(n)).tensor.sizes;
  if (in.size() != 4) return "only 4-D (NCHW) input";
  std::vector<double> scales;
  const aot::NamedArgument* sf = n.find_input("scale_factors");
  if (sf != nullptr && sf->arg.kind == aot::ArgKind::FloatList) scales = sf->arg.floats;
  for (const char* s : {"scales_h", "scales_w"}) {
    const aot::NamedArgument* a = n.find_input(s);
    if (a != nullptr && a->arg.kind == aot::ArgKind::Float) scales.push_back(a->arg.f);
  }
  for (size_t i = 0; i < scales.size() && i < 2; ++i) {
    if (scales[i] * double(in[2 + i].value) != double(out[2 + i].value)) {
      return "scale factor " + std::to_string(scales[i]) + " is not output/input size";
    }
  }
  return "";
}

std::string check_upsample_nearest(const aot::Node& n, const aot::Graph& g) {
  std::string why = check_upsample_scales(n, g);
  if (!why.empty()) return why;
  const auto& in = g.value(upsample_input(n)).tensor.sizes;
  const auto& out = g.value(output_tensor(n)).tensor.sizes;
  for (size_t i = 2; i < 4; ++i) {
    if (out[i].value % in[i].value != 0) return "nearest upsampling by a non-integer factor";
  }
  return "";
}

std::string check_clone(const aot::Node& n, const aot::Graph&) {
  const aot::NamedArgument* m = n.find_input("memory_format");
  if (m != nullptr && m->arg.kind == aot::ArgKind::MemoryFormat && m->arg.i != 1 && m->arg.i != 4) {
    return "clone to channels_last (dim order handled at the boundary only)";
  }
  return "";
}

std::string check_cat(const aot::Node& n, const aot::Graph& g) {
  const aot::NamedArgument* t = n.find_input("tensors");
  if (t == nullptr || t->arg.values.empty()) return "cat of no tensors";
  for (ValueId v : t->arg.values) {
    std::string why = check_tensor(g, v, "input", true);
    if (!why.empty()) return why;
  }
  return "";
}

std::string check_pad(const aot::Node& n, const aot::Graph&) {
  for (int64_t p : input_ints(n, "pad", {})) {
    if (p < 0) return "constant_pad_nd with negative padding";
  }
  return "";
}

// The delegate slices at positions fixed when it is built: an index, start or end that is a
// run-time value (map's loop counter, an item()) stays on the portable kernels.
std::string check_runtime_position(const aot::Node& n, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    const aot::NamedArgument* a = n.find_input(name);
    if (a != nullptr && !a->arg.values.empty() && a->arg.values[0] != aot::kNoValue) {
      return std::string(name) + " is a run-time value (the delegate's slices are static)";
    }
  }
  return "";
}

std::string check_slice(const aot::Node& n, const aot::Graph&) {
  if (input_double(n, "step", 1) != 1) return "slice with step != 1";
  return check_runtime_position(n, {"start", "end"});
}

std::string check_select(const aot::Node& n, const aot::Graph&) {
  return check_runtime_position(n, {"index"});
}

std::string check_split(const aot::Node& n, const aot::Graph& g) {
  const aot::TensorSpec& in = g.value(input_tensor(n, "self")).tensor;
  const int64_t dim = norm_dim(int64_t(input_double(n, "dim", 0)), in.rank());
  if (dim < 0 || dim >= int64_t(in.rank())) return "split dim out of range";
  const std::vector<int64_t> lens = split_lengths(n, in.sizes[size_t(dim)].value);
  int64_t total = 0;
  for (int64_t len : lens) {
    if (len < 0) return "split with a negative size";
    total += len;
  }
  if (total != in.sizes[size_t(dim)].value || lens.size() != n.outputs[0].values.size()) {
    return "split sizes do not cover the dim";
  }
  return "";
}

std::string ok(const aot::Node&, const aot::Graph&) { return ""; }

const std::map<std::string, Check>& checks() {
  static const std::map<std::string, Check> kChecks = {
      {"aten::convolution.default", check_conv},
      {"aten::_native_batch_norm_legit_no_training.default", check_bn},
      {"aten::addmm.default", check_addmm}, {"aten::mm.default", ok}, {"aten::bmm.default", ok},
      {"aten::linear.default", check_linear},
      {"aten::add.Tensor", check_alpha}, {"aten::sub.Tensor", check_alpha},
      {"aten::add.Scalar", check_alpha}, {"aten::sub.Scalar", check_alpha},
      {"aten::mul.Tensor", ok}, {"aten::mul.Scalar", ok}, {"aten::div.Tensor", ok}, {"aten::div.Scalar", ok},
      {"aten::maximum.default", ok}, {"aten::minimum.default", ok},
      {"aten::relu.default", ok}, {"aten::hardtanh.default", ok}, {"aten::clamp.default", check_clamp},
      {"aten::sigmoid.default", ok}, {"aten::hardswish.default", ok}, {"aten::leaky_relu.default", ok},
      {"aten::elu.default", check_elu}, {"aten::neg.default", ok}, {"aten::abs.default", ok},
      {"aten::floor.default", ok}, {"aten::ceil.default", ok}, {"aten::sqrt.default", ok},
      {"aten::gelu.default", check_gelu}, {"aten::tanh.default", ok}, {"aten::exp.default", ok},
      {"aten::log.default", ok}, {"aten::sin.default", ok}, {"aten::cos.default", ok},
      {"aten::rsqrt.default", ok}, {"aten::native_layer_norm.default", check_layer_norm},
      {"aten::pow.Tensor_Scalar", check_pow},
      {"aten::upsample_nearest2d.vec", check_upsample_nearest},
      {"aten::upsample_nearest2d.default", check_upsample_nearest},
      {"aten::upsample_bilinear2d.vec", check_upsample_scales},
      {"aten::upsample_bilinear2d.default", check_upsample_scales},
      {"aten::_softmax.default", check_softmax}, {"aten::softmax.int", ok},
      {"aten::max_pool2d_with_indices.default", check_pool}, {"aten::max_pool2d.default", check_pool},
      {"aten::avg_pool2d.default", check_pool}, {"aten::mean.dim", check_mean},
      {"aten::_adaptive_avg_pool2d.default", check_adaptive},
      {"aten::adaptive_avg_pool2d.default", check_adaptive},
      {"aten::permute.default", ok}, {"aten::permute_copy.default", ok}, {"aten::transpose.int", ok},
      {"aten::view.default", ok}, {"aten::_unsafe_view.default", ok}, {"aten::reshape.default", ok},
      {"aten::view_copy.default", ok}, {"aten::squeeze.dims", ok}, {"aten::squeeze.dim", ok},
      {"aten::squeeze.default", ok}, {"aten::unsqueeze.default", ok}, {"aten::flatten.using_ints", ok},
      {"aten::squeeze_copy.dims", ok}, {"aten::unsqueeze_copy.default", ok},
      {"aten::clone.default", check_clone}, {"aten::alias.default", ok}, {"aten::alias_copy.default", ok},
      {"aten::detach.default", ok}, {"aten::expand.default", check_expand},
      {"aten::expand_copy.default", check_expand},
      {"aten::cat.default", check_cat}, {"aten::select.int", check_select}, {"aten::select_copy.int", check_select},
      {"aten::split.Tensor", check_split}, {"aten::split_with_sizes.default", check_split},
      {"aten::slice.Tensor", check_slice}, {"aten::slice_copy.Tensor", check_slice}, {"aten::constant_pad_nd.default", check_pad},
  };
  return kChecks;
}

}  // namespace

// A node of a complete _safe_softmax pattern (safe_softmax.h) over a delegable f32 input: the
// pattern is taken whole (its bool values never leave the delegate).
bool in_safe_softmax(const aot::Node& node, const aot::Graph& graph) {
  const std::string& name = node.op.name;
  if (name != "where" && name != "eq" && name != "logical_not" && name != "any" && name != "full_like") {
    return false;
  }
  for (const SafeSoftmax& p : find_safe_softmax(graph)) {
    std::vector<size_t> members = p.bool_nodes;
    members.push_back(p.where);
    for (size_t i : members) {
      if (graph.nodes()[i].name != node.name) continue;
      return check_tensor(graph, p.input, "input").empty() && check_tensor(graph, p.output, "output").empty() &&
             mutated_state(graph, p.input).empty();
    }
  }
  return false;
}

Support xnnpack_support(const aot::Node& node, const aot::Graph& graph) {
  if (aot::is_quantized_decomposed(node)) return qdq_support(node, graph);
  if (in_safe_softmax(node, graph)) return Support::yes();
  const std::string q = node.op.qualified();
  auto it = checks().find(q);
  if (it == checks().end()) {
    for (const auto& [m, why] : kMissing) {
      if (node.op.name == m) return Support::no(short_name(node) + ": " + why);
    }
    for (const char* m : kBool) {
      if (node.op.name == m) {
        return Support::no(short_name(node) + ": reads or writes bool tensors (XNNPACK has no boolean datatype)");
      }
    }
    if (graph.custom_op_schemas() != nullptr) {
      if (const aot::OpSchema* s = graph.custom_op_schemas()->find(node.op)) {
        return Support::no(q + ": custom operator (declared at " + s->declared_at +
                           "): runs on the kernel the app registers for " + s->out_variant);
      }
    }
    return Support::no(q + ": no XNNPACK lowering");
  }
  const bool dyn = dynamic_ok(q);
  std::string why = check_outputs(node, graph, dyn);
  if (!why.empty()) return Support::no(short_name(node) + ": " + why);
  for (const aot::NamedArgument& in : node.inputs) {
    const aot::ArgKind k = in.arg.kind;
    if ((k == aot::ArgKind::SymFloat || k == aot::ArgKind::SymBool) && !in.arg.values.empty()) {
      return Support::no(short_name(node) + ": argument '" + in.name + "' is computed at run time");
    }
    // SymInt sizes (a view's sym_size) are fine for the ops that infer their dynamic dim
    // (dynamic_ok); to_backend does not pass them to the delegate.
    if (in.arg.kind != aot::ArgKind::Tensor) continue;
    why = check_tensor(graph, in.arg.values[0], "input '" + in.name + "'", dyn);
    if (!why.empty()) return Support::no(short_name(node) + ": " + why);
    const std::string state = mutated_state(graph, in.arg.values[0]);
    if (!state.empty()) {
      return Support::no(short_name(node) + ": reads mutable buffer '" + state +
                         "' (delegate constants are fixed at export)");
    }
  }
  why = it->second(node, graph);
  if (!why.empty()) return Support::no(why.rfind(short_name(node), 0) == 0 ? why : short_name(node) + ": " + why);
  return Support::yes();
}

}  // namespace ember::backends::xnnpack
