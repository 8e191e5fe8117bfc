// fold_conv_batch_norm (see fold_conv_bn.h).
#include "aot/quantize/fold_conv_bn.h"

#include <cmath>
#include <cstring>
#include <memory>

#include "aot/ir/graph_rewrite.h"
#include "aot/quantize/constant_input.h"

namespace ember::aot {
namespace {

bool floats_of(const Graph& g, ValueId v, int64_t count, std::vector<float>* out) {
  if (v == kNoValue) return false;
  const TensorSpec& s = g.value(v).tensor;
  if (s.constant == nullptr || s.dtype != ScalarType::Float || s.static_numel() != count ||
      int64_t(s.constant->bytes.size()) != count * 4) {
    return false;
  }
  out->resize(size_t(count));
  std::memcpy(out->data(), s.constant->bytes.data(), size_t(count) * 4);
  return true;
}

Result<ValueId> new_constant(Graph& g, const std::string& base, const std::vector<float>& data,
                             std::vector<int64_t> sizes, const std::string& source) {
  std::vector<uint8_t> bytes(data.size() * 4);
  if (!data.empty()) std::memcpy(bytes.data(), data.data(), bytes.size());
  return add_constant_input(g, base, ScalarType::Float, sizes, std::move(bytes), source);
}

}  // namespace

Result<int> fold_conv_batch_norm(Graph& g) {
  std::vector<int> producer(g.num_values(), -1);
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    for (const Argument& o : g.nodes()[i].outputs) {
      for_each_value(o, [&](ValueId v) { producer[size_t(v)] = int(i); });
    }
  }
  const std::vector<int32_t> uses = use_counts(g);
  std::vector<bool> drop(g.nodes().size(), false);
  int folded = 0;
  for (size_t i = 0; i < g.nodes().size(); ++i) {
    const Node& bn = g.nodes()[i];
    const bool legit = bn.op.name == "_native_batch_norm_legit_no_training";
    if (bn.kind != NodeKind::Op || bn.op.ns != "aten" ||
        !(bn.op.name == "batch_norm" || legit) || bn.outputs.empty()) {
      continue;
    }
    EMBER_ASSIGN_OR_RETURN(std::vector<Argument> ba, bound_arguments(bn));
    const ValueId x = tensor_of(ba[0]);
    const int p = x == kNoValue ? -1 : producer[size_t(x)];
    if (p < 0) continue;
    if (!legit && (ba[5].kind != ArgKind::Bool || ba[5].b)) continue;  // training=True
    const Argument& eps_arg = legit ? ba[6] : ba[7];
    if (eps_arg.kind != ArgKind::Float) continue;
    Node& conv = g.nodes()[size_t(p)];
    if (conv.kind != NodeKind::Op || conv.op.ns != "aten" ||
        !(conv.op.name == "conv1d" || conv.op.name == "conv2d") || conv.op.overload != "default") {
      continue;
    }
    if (uses[size_t(x)] != 1) continue;
    for (size_t k = 1; k < bn.outputs.size(); ++k) {
      const ValueId u = tensor_of(bn.outputs[k]);
      if (u != kNoValue && uses[size_t(u)] != 0) {
        goto next;
      }
    }
    {
      const NamedArgument* wa = conv.find_input("weight");
      const NamedArgument* bia = conv.find_input("bias");
      const ValueId w = wa ? tensor_of(wa->arg) : kNoValue;
      const ValueId b = bia ? tensor_of(bia->arg) : kNoValue;
      if (w == kNoValue) continue;
      const TensorSpec& ws = g.value(w).tensor;
      if (!ws.is_static() || ws.rank() < 2) continue;
      const int64_t co = ws.sizes[0].value, numel = ws.static_numel();
      std::vector<float> wv, mean, var, gamma(size_t(co), 1.0f), beta(size_t(co), 0.0f),
          bias(size_t(co), 0.0f);
      if (!floats_of(g, w, numel, &wv) || !floats_of(g, tensor_of(ba[3]), co, &mean) ||
          !floats_of(g, tensor_of(ba[4]), co, &var)) {
        continue;
      }
      if (tensor_of(ba[1]) != kNoValue && !floats_of(g, tensor_of(ba[1]), co, &gamma)) continue;
      if (tensor_of(ba[2]) != kNoValue && !floats_of(g, tensor_of(ba[2]), co, &beta)) continue;
      if (b != kNoValue && !floats_of(g, b, co, &bias)) continue;
      const float eps = float(eps_arg.f);
      const int64_t per = numel / co;
      std::vector<float> fb(static_cast<size_t>(co));
      for (int64_t c = 0; c < co; ++c) {
        const float rs = 1.0f / std::sqrt(var[size_t(c)] + eps);
        const float s = gamma[size_t(c)] * rs;
        for (int64_t q = 0; q < per; ++q) wv[size_t(c * per + q)] = wv[size_t(c * per + q)] * s;
        fb[size_t(c)] = (bias[size_t(c)] - mean[size_t(c)]) * rs * gamma[size_t(c)] + beta[size_t(c)];
      }
      std::vector<int64_t> wsizes;
      for (const SymInt& s : ws.sizes) wsizes.push_back(s.value);
      const std::string wname = g.value(w).name;
      EMBER_ASSIGN_OR_RETURN(ValueId nw, new_constant(g, wname + "_bn_folded", wv, wsizes,
                                                      "batch norm " + bn.name + " folded"));
      EMBER_ASSIGN_OR_RETURN(ValueId nb, new_constant(g, wname + "_bias_bn_folded", fb, {co},
                                                      "batch norm " + bn.name + " folded"));
      Node& cv = g.nodes()[size_t(p)];
      bool has_bias = false;
      for (NamedArgument& in : cv.inputs) {
        if (in.name == "weight") in.arg = Argument::tensor(nw);
        if (in.name == "bias") {
          in.arg = Argument::tensor(nb);
          has_bias = true;
        }
      }
      if (!has_bias) {
        // conv2d(input, weight, bias=None, ...): bias is the third schema argument.
        std::vector<NamedArgument> ins;
        for (NamedArgument& in : cv.inputs) {
          ins.push_back(in);
          if (in.name == "weight") ins.push_back({"bias", Argument::tensor(nb), false});
        }
        cv.inputs = std::move(ins);
      }
      const ValueId y = tensor_of(g.nodes()[i].outputs[0]);
      if (y != kNoValue) replace_uses(g, y, x, i);
      drop[i] = true;
      ++folded;
    }
  next:;
  }
  remove_nodes(g, drop);
  return folded;
}

}  // namespace ember::aot
