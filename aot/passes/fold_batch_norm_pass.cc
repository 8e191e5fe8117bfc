// FoldBatchNormPass (see fold_batch_norm_pass.h).
#include "aot/passes/fold_batch_norm_pass.h"

#include <cmath>
#include <cstring>
#include <memory>

#include "aot/ir/graph_rewrite.h"

namespace ember::aot {

namespace {

// Float32 values of a constant tensor with `count` elements; empty if `v` is not one.
std::vector<float> constant_floats(const Graph& g, ValueId v, int64_t count) {
  if (v == kNoValue) return {};
  const TensorSpec& s = g.value(v).tensor;
  if (s.constant == nullptr || s.dtype != ScalarType::Float || s.static_numel() != count ||
      int64_t(s.constant->bytes.size()) != count * 4) {
    return {};
  }
  std::vector<float> out(static_cast<size_t>(count));
  std::memcpy(out.data(), s.constant->bytes.data(), out.size() * 4);
  return out;
}

void set_constant(Graph& g, ValueId v, const std::vector<float>& data, const std::string& why) {
  auto c = std::make_shared<ConstantData>();
  c->bytes.resize(data.size() * 4);
  std::memcpy(c->bytes.data(), data.data(), c->bytes.size());
  c->source = g.value(v).tensor.constant->source + " (" + why + ")";
  g.value(v).tensor.constant = std::move(c);
}

bool is_op(const Node& n, const char* name) {
  return n.kind == NodeKind::Op && n.op.ns == "aten" && n.op.name == name &&
         n.op.overload == "default";
}

ValueId optional_tensor(const Argument& a) { return a.kind == ArgKind::Tensor ? a.values[0] : kNoValue; }

// Folds node `bn_index` into the convolution producing its input, if the pattern holds.
bool try_fold(Graph& g, size_t bn_index, const std::vector<int>& producer,
              const std::vector<int32_t>& uses) {
  const Node& bn = g.nodes()[bn_index];
  auto bn_args = bound_arguments(bn);
  if (!bn_args.ok() || bn.outputs.size() != 3) return false;
  const std::vector<Argument>& ba = bn_args.get();
  const ValueId conv_out = optional_tensor(ba[0]);
  if (conv_out == kNoValue || producer[size_t(conv_out)] < 0 || uses[size_t(conv_out)] != 1) {
    return false;
  }
  for (size_t k = 1; k < 3; ++k) {
    const ValueId u = tensor_of(bn.outputs[k]);
    if (u != kNoValue && uses[size_t(u)] != 0) return false;
  }
  Node& conv = g.nodes()[size_t(producer[size_t(conv_out)])];
  if (!is_op(conv, "convolution")) return false;
  auto conv_args = bound_arguments(conv);
  if (!conv_args.ok()) return false;
  const std::vector<Argument>& ca = conv_args.get();
  if (ca[6].kind != ArgKind::Bool || ca[6].b) return false;  // transposed
  const ValueId w = optional_tensor(ca[1]), b = optional_tensor(ca[2]);
  if (w == kNoValue || uses[size_t(w)] != 1) return false;
  const TensorSpec& ws = g.value(w).tensor;
  if (ws.rank() < 1 || !ws.is_static() || ws.dtype != ScalarType::Float) return false;
  const int64_t co = ws.sizes[0].value, numel = ws.static_numel();
  std::vector<float> wv = constant_floats(g, w, numel);
  std::vector<float> mean = constant_floats(g, optional_tensor(ba[3]), co);
  std::vector<float> var = constant_floats(g, optional_tensor(ba[4]), co);
  const ValueId gamma_id = optional_tensor(ba[1]), beta_id = optional_tensor(ba[2]);
  std::vector<float> gamma = gamma_id == kNoValue ? std::vector<float>(size_t(co), 1.0f)
                                                  : constant_floats(g, gamma_id, co);
  std::vector<float> beta = beta_id == kNoValue ? std::vector<float>(size_t(co), 0.0f)
                                                : constant_floats(g, beta_id, co);
  std::vector<float> bias = b == kNoValue ? std::vector<float>(size_t(co), 0.0f)
                                          : constant_floats(g, b, co);
  // The value that will hold the folded bias: the conv's own, else beta's.
  const ValueId bias_target = b != kNoValue ? b : beta_id;
  if (wv.empty() || mean.empty() || var.empty() || gamma.empty() || beta.empty() ||
      bias.empty() || bias_target == kNoValue || uses[size_t(bias_target)] != 1 ||
      ba[6].kind != ArgKind::Float) {
    return false;
  }
  const double eps = ba[6].f;
  const int64_t per = numel / co;
  std::vector<float> folded_bias(static_cast<size_t>(co));
  for (int64_t c = 0; c < co; ++c) {
    const double s = double(gamma[size_t(c)]) / std::sqrt(double(var[size_t(c)]) + eps);
    for (int64_t q = 0; q < per; ++q) {
      float& x = wv[size_t(c * per + q)];
      x = float(double(x) * s);
    }
    folded_bias[size_t(c)] =
        float((double(bias[size_t(c)]) - double(mean[size_t(c)])) * s + double(beta[size_t(c)]));
  }
  set_constant(g, w, wv, "batch norm folded");
  set_constant(g, bias_target, folded_bias, "batch norm folded");
  bool has_bias_arg = false;
  for (NamedArgument& in : conv.inputs) {
    if (in.name == "bias") {
      in.arg = Argument::tensor(bias_target);
      has_bias_arg = true;
    }
  }
  if (!has_bias_arg) conv.inputs.push_back({"bias", Argument::tensor(bias_target), false});
  const ValueId y = tensor_of(bn.outputs[0]);
  if (y != kNoValue) replace_uses(g, y, conv_out, bn_index);
  return true;
}

}  // namespace

Error FoldBatchNormPass::run(Graph& graph) const {
  const std::vector<int> producer = value_producers(graph);
  const std::vector<int32_t> uses = use_counts(graph);
  std::vector<bool> drop(graph.nodes().size(), false);
  for (size_t i = 0; i < graph.nodes().size(); ++i) {
    if (is_op(graph.nodes()[i], "_native_batch_norm_legit_no_training")) {
      drop[i] = try_fold(graph, i, producer, uses);
    }
  }
  remove_nodes(graph, drop);
  return Error::Ok;
}

}  // namespace ember::aot
